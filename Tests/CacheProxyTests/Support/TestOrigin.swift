import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A real HTTP origin on 127.0.0.1 for the proxy's tests, with the faults real origins have:
/// ignoring `Range`, dropping the connection mid-body, 5xx, chunked bodies of unknown length,
/// slow heads and slow bodies. It records every request so tests can assert how many upstream
/// fetches happened and for which bytes.
final class TestOrigin: Sendable {
    struct Faults: Sendable {
        /// Answer a Range request with 200 and the whole body.
        var ignoresRange = false
        /// Close the connection after this many body bytes.
        var dropAfter: Int?
        /// Answer with this status and a short body instead.
        var status: Int?
        /// Send the body chunked, without Content-Length.
        var chunked = false
        /// Wait this long before the response head.
        var headDelay: Duration?
        /// Wait this long between body chunks.
        var chunkDelay: Duration?
        var chunkSize = 64 * 1024
    }

    struct Resource: Sendable {
        var body: [UInt8]
        var contentType: String
        var entityTag: String?
        var faults: Faults

        init(_ body: [UInt8], contentType: String = "video/mp2t", entityTag: String? = nil, faults: Faults = Faults()) {
            self.body = body
            self.contentType = contentType
            self.entityTag = entityTag
            self.faults = faults
        }
    }

    struct Request: Sendable, Hashable {
        var method: String
        var path: String
        var range: String?
        /// The query, without the `?`; nil when the target had none.
        var query: String? = nil
    }

    /// Makes a path's answer at request time from the request's query: a live playlist that
    /// grows, or one that blocks until a segment exists (LL-HLS).
    typealias Responder = @Sendable (_ query: String?) async -> Resource

    private typealias Connection = NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>
    private let resources = Mutex<[String: Resource]>([:])
    private let responders = Mutex<[String: Responder]>([:])
    private let log = Mutex<[Request]>([])
    private let listener: NIOAsyncChannel<Connection, Never>
    private let serving = Mutex<Task<Void, Never>?>(nil)
    let port: Int

    private init(listener: NIOAsyncChannel<Connection, Never>) {
        self.listener = listener
        port = listener.channel.localAddress?.port ?? 0
    }

    /// Starts an origin on a free loopback port.
    /// Starts an origin on `port` (0: a free one; another: an origin coming back where one was).
    static func start(port: Int = 0) async throws -> TestOrigin {
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    return try Connection(wrappingChannelSynchronously: channel)
                }
            }
        let origin = TestOrigin(listener: listener)
        let task = Task<Void, Never> {
            _ = try? await withThrowingDiscardingTaskGroup { group in
                try await listener.executeThenClose { inbound in
                    for try await connection in inbound {
                        group.addTask { await origin.serve(connection) }
                    }
                }
                group.cancelAll()
            }
        }
        origin.serving.withLock { $0 = task }
        return origin
    }

    /// Stops listening and drops every connection: the origin is now unreachable.
    func stop() async {
        listener.channel.close(promise: nil)
        let task = serving.withLock { $0 }
        await task?.value
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    func set(_ path: String, _ resource: Resource) {
        resources.withLock { $0[path] = resource }
    }

    func setResponder(_ path: String, _ responder: @escaping Responder) {
        responders.withLock { $0[path] = responder }
    }

    func update(_ path: String, _ change: (inout Resource) -> Void) {
        resources.withLock { resources in
            if var resource = resources[path] {
                change(&resource)
                resources[path] = resource
            }
        }
    }

    var requests: [Request] { log.withLock { $0 } }
    func requests(for path: String) -> [Request] { requests.filter { $0.path == path } }
    func resetLog() { log.withLock { $0.removeAll() } }

    // MARK: Serving

    private func serve(_ connection: Connection) async {
        try? await connection.executeThenClose { inbound, outbound in
            var parts = inbound.makeAsyncIterator()
            while let part = try await parts.next() {
                guard case .head(let head) = part else { continue }
                while let next = try await parts.next() { if case .end = next { break } }
                let keepOpen = try await respond(to: head, outbound: outbound)
                if !keepOpen { return }
            }
        }
    }

    /// Returns false when the connection must close (a dropped body).
    private func respond(to head: HTTPRequestHead, outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>) async throws -> Bool {
        let path = String(head.uri.prefix { $0 != "?" })
        let query = head.uri.firstIndex(of: "?").map { String(head.uri[head.uri.index(after: $0)...]) }
        let rangeHeader = head.headers.first(name: "range")
        log.withLock { $0.append(Request(method: "\(head.method)", path: path, range: rangeHeader, query: query)) }
        var resource = resources.withLock { $0[path] }
        if let responder = responders.withLock({ $0[path] }) { resource = await responder(query) }
        guard let resource else {
            try await outbound.write(contentsOf: [.head(.init(version: .http1_1, status: .notFound, headers: ["Content-Length": "0"])), .end(nil)])
            return true
        }
        let faults = resource.faults
        if let delay = faults.headDelay { try await Task.sleep(for: delay) }
        if let status = faults.status {
            try await outbound.write(contentsOf: [
                .head(.init(version: .http1_1, status: .init(statusCode: status), headers: ["Content-Length": "4"])),
                .body(.byteBuffer(ByteBuffer(string: "fail"))), .end(nil),
            ])
            return true
        }
        let length = resource.body.count
        var status = HTTPResponseStatus.ok
        var range = 0..<length
        var headers = HTTPHeaders([("Content-Type", resource.contentType), ("Accept-Ranges", "bytes")])
        if let tag = resource.entityTag { headers.add(name: "ETag", value: tag) }
        if let rangeHeader, !faults.ignoresRange, let requested = Self.parseRange(rangeHeader, length: length) {
            guard let requested = requested else {
                headers.add(name: "Content-Range", value: "bytes */\(length)")
                headers.add(name: "Content-Length", value: "0")
                try await outbound.write(contentsOf: [.head(.init(version: .http1_1, status: .rangeNotSatisfiable, headers: headers)), .end(nil)])
                return true
            }
            status = .partialContent
            range = requested
            headers.add(name: "Content-Range", value: "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(length)")
        }
        if !faults.chunked { headers.add(name: "Content-Length", value: String(range.count)) }
        try await outbound.write(.head(.init(version: .http1_1, status: status, headers: headers)))
        guard head.method != .HEAD else {
            try await outbound.write(.end(nil))
            return true
        }
        var position = range.lowerBound
        var sent = 0
        while position < range.upperBound {
            var count = min(faults.chunkSize, range.upperBound - position)
            if let dropAfter = faults.dropAfter {
                if sent >= dropAfter { return false }
                count = min(count, dropAfter - sent)
            }
            try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: resource.body[position..<position + count]))))
            position += count
            sent += count
            if let delay = faults.chunkDelay { try await Task.sleep(for: delay) }
        }
        if let dropAfter = faults.dropAfter, sent >= dropAfter, position < range.upperBound { return false }
        try await outbound.write(.end(nil))
        return true
    }

    /// nil: not a single byte range (served whole); .some(nil): unsatisfiable.
    private static func parseRange(_ value: String, length: Int) -> Range<Int>?? {
        guard value.hasPrefix("bytes="), !value.contains(",") else { return nil }
        let spec = value.dropFirst(6)
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        if parts[0].isEmpty {
            guard let suffix = Int(parts[1]), suffix > 0, length > 0 else { return .some(nil) }
            return .some(max(0, length - suffix)..<length)
        }
        guard let first = Int(parts[0]) else { return nil }
        guard first < length else { return .some(nil) }
        let last = parts[1].isEmpty ? length - 1 : min(Int(parts[1]) ?? length - 1, length - 1)
        guard last >= first else { return nil }
        return .some(first..<(last + 1))
    }
}
