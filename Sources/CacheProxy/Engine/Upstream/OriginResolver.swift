package import CacheProxyParsing
import NIOCore
import NIOPosix
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Looks up the addresses an origin's host name stands for, so the proxy can refuse a forbidden
/// one before it connects. Tests replace it to make a name resolve where they need.
package struct OriginResolver: Sendable {
    /// The addresses of `host` (a name or an IP literal without brackets).
    package var addresses: @Sendable (_ host: String) async throws -> [IPAddress]

    package init(addresses: @escaping @Sendable (_ host: String) async throws -> [IPAddress]) {
        self.addresses = addresses
    }

    /// The system's resolver (`getaddrinfo`, which also reads IP literals in every form it
    /// accepts for connecting, `127.1` and `0x7f000001` included), on SwiftNIO's thread pool so
    /// that a slow lookup blocks no event loop or task.
    package static let system = OriginResolver { host in
        try await NIOThreadPool.singleton.runIfActive { try lookUp(host) }
    }

    private static func lookUp(_ host: String) throws -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0, let list else {
            if status == EAI_NONAME {
                throw UpstreamError(.unreachable, OriginFailureText.unresolvable(host))
            }
            throw UpstreamError(.unreachable, "\(host) could not be resolved: \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var addresses: [IPAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let current = entry {
            if let socketAddress = current.pointee.ai_addr {
                switch current.pointee.ai_family {
                case AF_INET:
                    socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                        if let address = IPAddress(SocketAddress($0.pointee)) { addresses.append(address) }
                    }
                case AF_INET6:
                    socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                        if let address = IPAddress(SocketAddress($0.pointee)) { addresses.append(address) }
                    }
                default: break
                }
            }
            entry = current.pointee.ai_next
        }
        return addresses
    }
}
