import Hummingbird
import Synchronization

/// An origin on 127.0.0.1 that serves fixed bytes with `Range` support, the way a real one
/// does (206 with `Content-Range`, 416, ETag), and records every request it gets.
///
/// For the proxy's failure paths it can hold a response at one byte position until the test
/// lets it go on or drop the connection there (``hold(at:)``, ``release(dropping:)``), and it
/// can answer 503 to everything (``isFailing``).
final class TestOrigin: Sendable {
    struct Received: Sendable, Equatable {
        var path: String
        var range: String?
    }

    static let entityTag = "\"v1\""
    private struct State {
        var files: [String: (bytes: [UInt8], entityTag: String)]
        var received: [Received] = []
        var holdAt: Int?
        var gate = Gate<Bool>()
        var isFailing = false
    }

    private let state: Mutex<State>
    private let server: Mutex<RunningServer?> = Mutex(nil)

    init(files: [String: [UInt8]]) {
        state = Mutex(State(files: files.mapValues { ($0, Self.entityTag) }))
    }

    /// A new version of the resource at `path`, with another ETag.
    func replace(_ path: String, with bytes: [UInt8], entityTag: String) {
        state.withLock { $0.files[path] = (bytes, entityTag) }
    }

    var url: String { "http://127.0.0.1:\(server.withLock { $0?.port ?? 0 })" }
    var received: [Received] { state.withLock { $0.received } }

    var isFailing: Bool {
        get { state.withLock { $0.isFailing } }
        set { state.withLock { $0.isFailing = newValue } }
    }

    /// The next response that reaches byte `position` stops there until ``release(dropping:)``.
    func hold(at position: Int) {
        state.withLock { $0.holdAt = position }
    }

    /// Lets the held response go on, or closes its connection mid-body.
    func release(dropping: Bool) {
        let gate = state.withLock { state in
            state.holdAt = nil
            defer { state.gate = Gate() }
            return state.gate
        }
        gate.open(with: dropping)
    }

    func start() async throws {
        let router = Router()
        router.get("**") { request, _ in self.respond(to: request) }
        let running = try await RunningServer.start(router)
        server.withLock { $0 = running }
    }

    func stop() async {
        await server.withLock { $0 }?.stop()
    }

    private func respond(to request: Request) -> Response {
        let path = request.uri.path
        let rangeHeader = request.headers[.range]
        let (failing, holdAt, gate, file) = state.withLock { state in
            state.received.append(Received(path: path, range: rangeHeader))
            return (state.isFailing, state.holdAt, state.gate, state.files[path])
        }
        guard !failing else { return Response(status: .serviceUnavailable) }
        guard let (bytes, entityTag) = file else { return Response(status: .notFound) }
        var headers: HTTPFields = [.eTag: entityTag, .contentType: "video/mp4", .acceptRanges: "bytes"]
        let range: Range<Int>
        if let rangeHeader {
            guard let requested = Self.parse(rangeHeader, length: bytes.count) else {
                return Response(status: .rangeNotSatisfiable, headers: [.contentRange: "bytes */\(bytes.count)"])
            }
            range = requested
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(bytes.count)"
        } else {
            range = 0..<bytes.count
        }
        let body = ResponseBody(contentLength: range.count) { writer in
            var offset = range.lowerBound
            while offset < range.upperBound {
                if let holdAt, offset == holdAt, await gate.wait() { throw DroppedByTest() }
                var end = min(range.upperBound, offset + 64 * 1024)
                if let holdAt, offset < holdAt { end = min(end, holdAt) }
                try await writer.write(ByteBuffer(bytes: bytes[offset..<end]))
                offset = end
            }
            try await writer.finish(nil)
        }
        return Response(status: rangeHeader == nil ? .ok : .partialContent, headers: headers, body: body)
    }

    /// `bytes=first-` or `bytes=first-last`, all the proxy sends.
    private static func parse(_ header: String, length: Int) -> Range<Int>? {
        guard header.hasPrefix("bytes=") else { return nil }
        let parts = header.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let first = Int(parts[0]), first < length else { return nil }
        let last = parts[1].isEmpty ? length - 1 : min(Int(parts[1]) ?? length - 1, length - 1)
        return last >= first ? first..<(last + 1) : nil
    }

    struct DroppedByTest: Error {}
}
