#if canImport(Glibc)
import Glibc
#endif

/// A loopback port that refuses connections and that no other test can take meanwhile: a TCP
/// socket bound to it that never listens. (A stopped origin's port is free for the next
/// `bind` of any test running in parallel, which would then answer in its place.)
final class RefusingPort {
    private var descriptor: Int32
    let port: Int

    /// Takes a free port, or `port` (one a stopped origin has just let go).
    init(port: Int = 0) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RawConnectionError.socket }
        // The stopped origin's connections may still hold the port; they were accepted with
        // SO_REUSEADDR, so a socket that sets it too may bind beside them.
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw RawConnectionError.socket
        }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Frees the port, for an origin to come back on it.
    func release() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }

    deinit { release() }
}
