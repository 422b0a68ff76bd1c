@testable import CacheProxy
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// A minimal HTTP/1 origin on 127.0.0.1 for the origin client contract: each path answers in
/// one way (``Answer``), over plain TCP or TLS, and the origin records how each answer ended and
/// how many body bytes it had written, so tests can see a client hang up or hold back.
final class ContractOrigin: Sendable {
    enum Answer: Sendable {
        /// `count` bytes of ``BodyPattern``; a single `Range` gets a `206` unless `ignoresRange`.
        case body(count: Int, ignoresRange: Bool = false)
        /// A `302` (or `status`) to `location`.
        case redirect(to: String, status: Int = 302)
        /// The head after `delay` (then an empty body).
        case slowHead(Duration)
        /// Announces `count` bytes, sends `sent` of them, then is silent for `silence`.
        case stall(count: Int, sent: Int, silence: Duration)
        /// Announces `count` bytes, sends `sent` of them, then closes the connection.
        case drop(count: Int, sent: Int)
        /// `count` bytes, `chunk` bytes every `interval`: an origin still sending when the
        /// client goes away.
        case drip(count: Int, chunk: Int, interval: Duration)
    }

    /// How an answer ended.
    enum Ending: Sendable, Equatable {
        case complete
        /// Cut by the origin (``Answer/drop(count:sent:)``).
        case dropped
        /// The client closed the connection before the answer ended.
        case abandoned
    }

    private typealias Connection = NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>
    private let answers = Mutex<[String: Answer]>([:])
    private let endings = Mutex<[String: [Ending]]>([:])
    private let bodyBytesWritten = Mutex<[String: Int]>([:])
    private let requestCounts = Mutex<[String: Int]>([:])
    private let listener: NIOAsyncChannel<Connection, Never>
    private let serving = Mutex<Task<Void, Never>?>(nil)
    let port: Int
    let scheme: String

    private init(listener: NIOAsyncChannel<Connection, Never>, scheme: String) {
        self.listener = listener
        self.scheme = scheme
        port = listener.channel.localAddress?.port ?? 0
    }

    /// Starts an origin on a free loopback port; with `tls`, every connection is TLS first.
    static func start(tls: NIOSSLContext? = nil) async throws -> ContractOrigin {
        // Connections accepted as `stop()` closes the listener are closed, not dropped.
        let accepted = AcceptedConnections<HTTPServerRequestPart, HTTPServerResponsePart>()
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls)) }
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    return accepted.admit(try Connection(wrappingChannelSynchronously: channel))
                }
            }
        let origin = ContractOrigin(listener: listener, scheme: tls == nil ? "http" : "https")
        let task = Task<Void, Never> {
            _ = try? await withThrowingDiscardingTaskGroup { group in
                try await accepted.serveAll(from: listener, in: &group) { await origin.serve($0) }
                group.cancelAll()
            }
        }
        origin.serving.withLock { $0 = task }
        return origin
    }

    /// Stops listening and ends every connection.
    func stop() async {
        try? await listener.channel.close()
        let task = serving.withLock { $0 }
        await task?.value
    }

    func url(_ path: String) -> String { "\(scheme)://127.0.0.1:\(port)\(path)" }
    func set(_ path: String, _ answer: Answer) { answers.withLock { $0[path] = answer } }
    func endings(_ path: String) -> [Ending] { endings.withLock { $0[path] ?? [] } }
    func written(_ path: String) -> Int { bodyBytesWritten.withLock { $0[path] ?? 0 } }
    func requests(_ path: String) -> Int { requestCounts.withLock { $0[path] ?? 0 } }

    // MARK: Serving

    private func serve(_ connection: Connection) async {
        try? await connection.executeThenClose { inbound, outbound in
            for try await part in inbound {
                guard case .head(let head) = part else { continue }
                let path = String(head.uri.prefix { $0 != "?" })
                requestCounts.withLock { $0[path, default: 0] += 1 }
                let ending: Ending
                do {
                    ending = try await answer(head, path: path, channel: connection.channel, outbound: outbound)
                } catch {
                    ending = .abandoned
                }
                endings.withLock { $0[path, default: []].append(ending) }
                if ending != .complete { return }
            }
        }
    }

    private func answer(
        _ head: HTTPRequestHead, path: String, channel: any Channel, outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>
    ) async throws -> Ending {
        guard let answer = answers.withLock({ $0[path] }) else {
            try await outbound.write(contentsOf: [.head(Self.head(.notFound, ["Content-Length": "0"])), .end(nil)])
            return .complete
        }
        switch answer {
        case .body(let count, let ignoresRange):
            var range = 0..<count
            var status = HTTPResponseStatus.ok
            var headers: HTTPHeaders = ["Accept-Ranges": "bytes"]
            if !ignoresRange, let value = head.headers.first(name: "range"), let requested = Self.range(value, length: count) {
                range = requested
                status = .partialContent
                headers.add(name: "Content-Range", value: "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(count)")
            }
            headers.add(name: "Content-Length", value: "\(range.count)")
            try await outbound.write(.head(Self.head(status, headers)))
            try await send(range, path: path, outbound: outbound)
            try await outbound.write(.end(nil))
        case .redirect(let location, let status):
            let headers: HTTPHeaders = ["Location": location, "Content-Length": "0"]
            try await outbound.write(contentsOf: [.head(Self.head(.init(statusCode: status), headers)), .end(nil)])
        case .slowHead(let delay):
            guard await wait(delay, while: channel) else { return .abandoned }
            try await outbound.write(contentsOf: [.head(Self.head(.ok, ["Content-Length": "0"])), .end(nil)])
        case .stall(let count, let sent, let silence):
            try await outbound.write(.head(Self.head(.ok, ["Content-Length": "\(count)"])))
            try await send(0..<sent, path: path, outbound: outbound)
            guard await wait(silence, while: channel) else { return .abandoned }
            try await send(sent..<count, path: path, outbound: outbound)
            try await outbound.write(.end(nil))
        case .drop(let count, let sent):
            try await outbound.write(.head(Self.head(.ok, ["Content-Length": "\(count)"])))
            try await send(0..<sent, path: path, outbound: outbound)
            return .dropped
        case .drip(let count, let chunk, let interval):
            try await outbound.write(.head(Self.head(.ok, ["Content-Length": "\(count)"])))
            var position = 0
            while position < count {
                let next = min(count, position + chunk)
                try await send(position..<next, path: path, outbound: outbound)
                position = next
                guard await wait(interval, while: channel) else { return .abandoned }
            }
            try await outbound.write(.end(nil))
        }
        return .complete
    }

    /// Writes `range` of the pattern, counting what each write accepted.
    private func send(_ range: Range<Int>, path: String, outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>) async throws {
        var position = range.lowerBound
        while position < range.upperBound {
            let count = min(64 * 1024, range.upperBound - position)
            try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: BodyPattern.bytes(at: position, count: count)))))
            position += count
            bodyBytesWritten.withLock { $0[path, default: 0] += count }
        }
    }

    /// Waits `duration` unless the connection closes first (false then).
    private func wait(_ duration: Duration, while channel: any Channel) async -> Bool {
        let end = ContinuousClock.now + duration
        while ContinuousClock.now < end {
            guard channel.isActive else { return false }
            guard (try? await Task.sleep(for: .milliseconds(10))) != nil else { return false }
        }
        return channel.isActive
    }

    private static func head(_ status: HTTPResponseStatus, _ headers: HTTPHeaders) -> HTTPResponseHead {
        HTTPResponseHead(version: .http1_1, status: status, headers: headers)
    }

    /// A single `bytes=first-last` range within `length`; nil for anything else.
    private static func range(_ value: String, length: Int) -> Range<Int>? {
        guard value.hasPrefix("bytes=") else { return nil }
        let parts = value.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let first = Int(parts[0]), first < length else { return nil }
        let last = parts[1].isEmpty ? length - 1 : min(Int(parts[1]) ?? length - 1, length - 1)
        return last >= first ? first..<last + 1 : nil
    }
}
