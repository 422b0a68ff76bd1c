import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain TCP connection to 127.0.0.1 for requests no HTTP client would send: garbage,
/// oversized heads, a head sent a byte at a time, a client that never reads.
final class RawConnection {
    private let descriptor: Int32
    /// Bytes received and not yet returned by ``readResponse(timeout:)``.
    private var received: [UInt8] = []

    init(port: Int, receiveBufferSize: Int32? = nil) throws {
        // Kept in a local until connected: once every stored property is set, a throwing init
        // still runs `deinit`, which would close the descriptor a second time. With tests running
        // in parallel, that number may by then name another test's file or socket (a refused
        // connection once closed a proxy's sendfile descriptor under it: EBADF, a crash).
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RawConnectionError.socket }
        if var size = receiveBufferSize {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(descriptor)
            throw RawConnectionError.connect
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// The connection's own port, as the server sees it as its peer's.
    var localPort: Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Sends bytes; false when the peer has closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { buffer in
            Glibc.send(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL)) == buffer.count
        }
    }

    /// Reads until the peer closes or `timeout` passes; returns the bytes and whether it closed.
    /// With `bytesPerSecond`, reads like a slow client that never pauses.
    ///
    /// The reads run on a thread of their own: on the cooperative pool, other tests' work (two
    /// threads on a two-core machine) could hold the reader up past a proxy's stall timeout, and
    /// the proxy would rightly cut it as a client that stopped reading.
    func readUntilClosed(timeout: Duration, bytesPerSecond: Int? = nil) async -> (bytes: [UInt8], closed: Bool) {
        let descriptor = descriptor
        return await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: Self.readUntilClosed(descriptor, timeout: timeout, bytesPerSecond: bytesPerSecond))
            }
            thread.start()
        }
    }

    private static func readUntilClosed(_ descriptor: Int32, timeout: Duration, bytesPerSecond: Int?) -> (bytes: [UInt8], closed: Bool) {
        let deadline = ContinuousClock.now + timeout
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: bytesPerSecond.map { max(1, $0 / 100) } ?? 65536)
        while ContinuousClock.now < deadline {
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 10) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            let error = errno
            if count > 0 {
                output += buffer[0..<count]
                // A read of a hundredth of the rate every 10 ms.
                if bytesPerSecond != nil { usleep(10_000) }
            } else if count == 0 || error == ECONNRESET {
                return (output, true)
            }
        }
        return (output, false)
    }
}

extension RawConnection {
    struct Response {
        var status: Int
        /// The head as received, status line to the empty line.
        var head: String
        /// Header names in lower case.
        var headers: [String: String]
        var body: [UInt8]
    }

    /// Reads the next response, which must have a `Content-Length`; nil when it does not arrive
    /// whole within `timeout`. The response to a HEAD request (`toHead`) has no body whatever
    /// its `Content-Length`.
    func readResponse(timeout: Duration, toHead: Bool = false) async -> Response? {
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        let deadline = ContinuousClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 65536)
        while ContinuousClock.now < deadline {
            if let (response, length) = Self.parse(received, toHead: toHead) {
                received.removeFirst(length)
                return response
            }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += buffer[0..<count]
            } else if count == 0 {
                return nil
            } else {
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
        return nil
    }

    /// Reads until a response head and at least `count` bytes of its body have arrived (kept for
    /// ``readResponse(timeout:)``); false when they do not within `timeout`.
    func readHead(andBody count: Int, timeout: Duration) async -> Bool {
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        let deadline = ContinuousClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 65536)
        let separator: [UInt8] = [13, 10, 13, 10]
        while ContinuousClock.now < deadline {
            if let headEnd = received.indices.dropLast(3).first(where: { received[$0..<$0 + 4].elementsEqual(separator) }),
               received.count - (headEnd + 4) >= count {
                return true
            }
            let read = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if read > 0 {
                received += buffer[0..<read]
            } else if read == 0 {
                return false
            } else {
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
        return false
    }

    /// The first complete response in `bytes` and how many bytes it took.
    private static func parse(_ bytes: [UInt8], toHead: Bool) -> (Response, Int)? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let headEnd = (0...max(0, bytes.count - 4)).first(where: { bytes.count >= 4 && Array(bytes[$0..<$0 + 4]) == separator })
        else { return nil }
        let head = String(decoding: bytes[0..<headEnd + 4], as: UTF8.self)
        let lines = String(decoding: bytes[0..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
        guard let statusLine = lines.first, let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = toHead ? 0 : Int(headers["content-length"] ?? "0") ?? 0
        let bodyStart = headEnd + 4
        guard bytes.count >= bodyStart + length else { return nil }
        return (Response(status: status, head: head, headers: headers, body: Array(bytes[bodyStart..<bodyStart + length])), bodyStart + length)
    }
}

enum RawConnectionError: Error {
    case socket
    case connect
}
