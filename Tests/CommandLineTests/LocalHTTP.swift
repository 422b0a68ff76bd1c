import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP/1.1 origin on 127.0.0.1 for the command-line tests: it answers GET and HEAD of
/// the paths it was given with 200 and their bytes (404 otherwise), one request per connection,
/// on a thread of its own, until it is released.
final class LocalHTTPOrigin {
    let port: Int
    private let socket: ListeningSocket
    private let finished = DispatchSemaphore(value: 0)

    init(files: [String: [UInt8]], contentType: String = "application/vnd.apple.mpegurl") throws {
        let socket = try ListeningSocket()
        self.socket = socket
        port = socket.port
        let descriptor = socket.descriptor
        Thread.detachNewThread { [finished] in
            while true {
                let client = accept(descriptor, nil, nil)
                if client < 0 {
                    if errno == EINTR || errno == ECONNABORTED { continue }
                    break  // shut down by deinit
                }
                LocalHTTP.answer(client, files: files, contentType: contentType)
                close(client)
            }
            finished.signal()
        }
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    deinit {
        // Wakes the thread's accept with an error; the socket is closed after it has ended.
        shutdown(socket.descriptor, Int32(SHUT_RDWR))
        finished.wait()
    }
}

/// Raw HTTP/1.1 over a socket: enough for the tests to be a client and a server without a
/// networking library.
enum LocalHTTP {
    struct Response {
        var status: Int
        var head: String
        var body: [UInt8]
    }

    /// `GET path` (or another method) on 127.0.0.1:port; the whole response.
    static func get(port: Int, path: String, method: String = "GET", headers: [String] = []) throws -> Response {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { throw POSIXError(.ECONNREFUSED) }
        let request = ([ "\(method) \(path) HTTP/1.1", "Host: 127.0.0.1:\(port)", "Connection: close"] + headers).joined(separator: "\r\n") + "\r\n\r\n"
        _ = request.utf8CString.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count - 1, 0) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        let separator = Array("\r\n\r\n".utf8)
        let split = (0..<max(0, bytes.count - 3)).first { Array(bytes[$0..<$0 + 4]) == separator } ?? bytes.count
        let head = String(decoding: bytes[0..<split], as: UTF8.self)
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        return Response(status: status, head: head, body: Array(bytes[min(bytes.count, split + 4)...]))
    }

    /// Reads one request head from `client` and answers it.
    static func answer(_ client: Int32, files: [String: [UInt8]], contentType: String) {
        var request: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: request, as: UTF8.self).contains("\r\n\r\n"), request.count < 65536 {
            let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return }
            request += chunk[0..<count]
        }
        let line = String(decoding: request.prefix { $0 != 13 }, as: UTF8.self).split(separator: " ")
        let method = line.first.map(String.init) ?? ""
        let path = line.dropFirst().first.map(String.init) ?? "/"
        let body = files[path]
        var head = body == nil ? "HTTP/1.1 404 Not Found\r\n" : "HTTP/1.1 200 OK\r\n"
        head += "Content-Type: \(contentType)\r\nContent-Length: \(body?.count ?? 0)\r\nConnection: close\r\n\r\n"
        let out = Array(head.utf8) + (method == "HEAD" ? [] : body ?? [])
        var sent = 0
        while sent < out.count {
            let count = out[sent...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count <= 0 { return }
            sent += count
        }
    }
}
