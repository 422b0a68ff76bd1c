@testable import CacheProxy
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization
import TestSupport

/// A real HTTP origin on 127.0.0.1 for the proxy's tests, with the faults real origins have:
/// ignoring `Range`, dropping the connection mid-body, 5xx (always, or for the first requests
/// only), chunked bodies of unknown length, slow heads and slow bodies, redirects; and a gate
/// that holds a body part-way until the test opens it. It records every request (with the time
/// it arrived) and how every response ended, so tests can assert how many upstream fetches
/// happened, for which bytes, and whether the proxy hung up on one.
final class TestOrigin: Sendable {
    struct Faults: Sendable {
        /// Answer a Range request with 200 and the whole body.
        var ignoresRange = false
        /// Close the connection after this many body bytes.
        var dropAfter: Int?
        /// Answer with this status and a short body instead.
        var status: Int?
        /// With ``status``: only the first this many requests get it (nil: every request).
        var statusCount: Int?
        /// Send the body chunked, without Content-Length.
        var chunked = false
        /// Wait this long before the response head.
        var headDelay: Duration?
        /// Wait this long between body chunks.
        var chunkDelay: Duration?
        var chunkSize = 64 * 1024
        /// After this many body bytes of a response, wait until ``gate`` opens.
        var pauseAfter: Int?
        var gate: TestGate?
    }

    struct Resource: Sendable {
        var body: [UInt8]
        var contentType: String
        var entityTag: String?
        var lastModified: String?
        /// The `Cache-Control` header sent with the resource, if any.
        var cacheControl: String?
        /// Answer with a 302 to this location instead.
        var redirect: String?
        /// Fields a request must carry with exactly these values (lower-cased names); one
        /// that does not gets a 403, as an origin behind credentials answers.
        var requiredFields: [String: String] = [:]
        /// The `Vary` header sent with the resource, if any.
        var vary: String?
        var faults: Faults

        init(_ body: [UInt8], contentType: String = "video/mp2t", entityTag: String? = nil, lastModified: String? = nil,
             faults: Faults = Faults()) {
            self.body = body
            self.contentType = contentType
            self.entityTag = entityTag
            self.lastModified = lastModified
            self.faults = faults
        }

        /// A 302 to `location` (a path of this origin or any URL).
        static func redirect(to location: String) -> Resource {
            var resource = Resource([])
            resource.redirect = location
            return resource
        }
    }

    struct Request: Sendable, Hashable {
        var method: String
        var path: String
        var range: String?
        /// The query, without the `?`; nil when the target had none.
        var query: String? = nil
        var time = ContinuousClock.now
        /// Whether the request carried `If-None-Match` or `If-Modified-Since`.
        var isConditional = false
        /// Every field of the request, by lower-cased name (values of repeated fields joined by ", ").
        var fields: [String: String] = [:]
    }

    /// How a response ended.
    enum Outcome: Sendable, Hashable {
        /// Sent whole.
        case complete
        /// Cut by a ``Faults/dropAfter`` fault.
        case dropped
        /// The client went away before the whole body was sent.
        case abandoned
    }

    /// Makes a path's answer at request time from the request's query: a live playlist that
    /// grows, or one that blocks until a segment exists (LL-HLS).
    typealias Responder = @Sendable (_ query: String?) async -> Resource

    private typealias Connection = NIOAsyncChannel<HTTPServerRequestPart, HTTPServerResponsePart>
    private let resources = Mutex<[String: Resource]>([:])
    private let responders = Mutex<[String: Responder]>([:])
    private let log = Mutex<[Request]>([])
    private let outcomes = Mutex<[String: [Outcome]]>([:])
    private let statusesSent = Mutex<[String: Int]>([:])
    /// Per closed connection, the path of the last request it carried.
    private let closed = Mutex<[String]>([])
    private let heldPort = Mutex<RefusingPort?>(nil)
    private let listener: NIOAsyncChannel<Connection, Never>
    private let serving = Mutex<Task<Void, Never>?>(nil)
    let port: Int

    private init(listener: NIOAsyncChannel<Connection, Never>) {
        self.listener = listener
        port = listener.channel.localAddress?.port ?? 0
    }

    /// Starts an origin on a free loopback port, or on `port` (an origin that comes back).
    static func start(port: Int = 0) async throws -> TestOrigin {
        // Connections accepted as `stop()` closes the listener are closed, not dropped.
        let accepted = AcceptedConnections<HTTPServerRequestPart, HTTPServerResponsePart>()
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    return accepted.admit(try Connection(wrappingChannelSynchronously: channel))
                }
            }
        let origin = TestOrigin(listener: listener)
        let task = Task<Void, Never> {
            _ = try? await withThrowingDiscardingTaskGroup { group in
                try await accepted.serveAll(from: listener, in: &group) { await origin.serve($0) }
                group.cancelAll()
            }
        }
        origin.serving.withLock { $0 = task }
        return origin
    }

    /// Stops listening and drops every connection: the origin is now unreachable, and stays so
    /// while this origin lives. Its port is held by a socket that refuses connections, because a
    /// test running in parallel could otherwise bind the freed port and answer in its place. (If
    /// the port cannot be bound again at once, it is left free, as before the hold existed.)
    func stop() async {
        try? await listener.channel.close()
        let port = port
        if port > 0 {
            heldPort.withLock { if $0 == nil { $0 = try? RefusingPort(port: port) } }
        }
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

    /// The resource served at `path`.
    func resource(_ path: String) -> Resource? {
        resources.withLock { $0[path] }
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

    /// How the responses for `path` that have ended so far ended, in order.
    func outcomes(for path: String) -> [Outcome] { outcomes.withLock { $0[path] ?? [] } }

    private func record(_ outcome: Outcome, for path: String) {
        outcomes.withLock { $0[path, default: []].append(outcome) }
    }

    // MARK: Serving

    /// How many connections whose last request was for `path` have closed, by either side: a
    /// client that cut a held answer has closed its connection once this counts it, and the
    /// answer's next write fails.
    func closedConnections(lastServing path: String) -> Int {
        closed.withLock { $0.count { $0 == path } }
    }

    private func serve(_ connection: Connection) async {
        let lastPath = NIOLockedValueBox("")
        try? await connection.executeThenClose { inbound, outbound in
            connection.channel.closeFuture.whenComplete { _ in
                let path = lastPath.withLockedValue { $0 }
                self.closed.withLock { $0.append(path) }
            }
            var parts = inbound.makeAsyncIterator()
            while let part = try await parts.next() {
                guard case .head(let head) = part else { continue }
                lastPath.withLockedValue { $0 = String(head.uri.prefix { $0 != "?" }) }
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
        let isConditional = head.headers.contains(name: "if-none-match") || head.headers.contains(name: "if-modified-since")
        var fields: [String: String] = [:]
        for (name, value) in head.headers { fields[name.lowercased()] = fields[name.lowercased()].map { $0 + ", " + value } ?? value }
        log.withLock {
            $0.append(Request(method: "\(head.method)", path: path, range: rangeHeader, query: query, isConditional: isConditional, fields: fields))
        }
        var resource = resources.withLock { $0[path] }
        if let responder = responders.withLock({ $0[path] }) { resource = await responder(query) }
        guard let resource else {
            try await outbound.write(contentsOf: [.head(.init(version: .http1_1, status: .notFound, headers: ["Content-Length": "0"])), .end(nil)])
            return true
        }
        if resource.requiredFields.contains(where: { fields[$0.key] != $0.value }) {
            try await outbound.write(contentsOf: [
                .head(.init(version: .http1_1, status: .forbidden, headers: ["Content-Length": "9"])),
                .body(.byteBuffer(ByteBuffer(string: "forbidden"))), .end(nil),
            ])
            return true
        }
        let faults = resource.faults
        if let delay = faults.headDelay { try await Task.sleep(for: delay) }
        if let location = resource.redirect {
            let headers = HTTPHeaders([("Location", location.hasPrefix("/") ? url(location) : location), ("Content-Length", "0")])
            try await outbound.write(contentsOf: [.head(.init(version: .http1_1, status: .found, headers: headers)), .end(nil)])
            return true
        }
        if let status = faults.status, takeStatusFault(path, limit: faults.statusCount) {
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
        if let date = resource.lastModified { headers.add(name: "Last-Modified", value: date) }
        if let cacheControl = resource.cacheControl { headers.add(name: "Cache-Control", value: cacheControl) }
        if let vary = resource.vary { headers.add(name: "Vary", value: vary) }
        if let tag = resource.entityTag, head.headers.first(name: "if-none-match") == tag {
            headers.add(name: "Content-Length", value: "0")
            try await outbound.write(contentsOf: [.head(.init(version: .http1_1, status: .notModified, headers: headers)), .end(nil)])
            record(.complete, for: path)
            return true
        }
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
        do {
            try await outbound.write(.head(.init(version: .http1_1, status: status, headers: headers)))
            guard head.method != .HEAD else {
                try await outbound.write(.end(nil))
                record(.complete, for: path)
                return true
            }
            let keepOpen = try await sendBody(resource.body, range: range, faults: faults, outbound: outbound)
            record(keepOpen ? .complete : .dropped, for: path)
            return keepOpen
        } catch {
            record(.abandoned, for: path)
            throw error
        }
    }

    /// Whether this response for `path` gets the status fault (the first `limit` ones do).
    private func takeStatusFault(_ path: String, limit: Int?) -> Bool {
        statusesSent.withLock { sent in
            guard sent[path, default: 0] < limit ?? Int.max else { return false }
            sent[path, default: 0] += 1
            return true
        }
    }

    /// Sends `range` of `body` in chunks; returns false when a fault dropped the connection.
    private func sendBody(
        _ body: [UInt8], range: Range<Int>, faults: Faults, outbound: NIOAsyncChannelOutboundWriter<HTTPServerResponsePart>
    ) async throws -> Bool {
        var position = range.lowerBound
        var sent = 0
        var paused = false
        while position < range.upperBound {
            if let pauseAfter = faults.pauseAfter, let gate = faults.gate, !paused, sent >= pauseAfter {
                paused = true
                await gate.wait()
            }
            var count = min(faults.chunkSize, range.upperBound - position)
            if let pauseAfter = faults.pauseAfter, !paused, sent < pauseAfter { count = min(count, pauseAfter - sent) }
            if let dropAfter = faults.dropAfter {
                if sent >= dropAfter { return false }
                count = min(count, dropAfter - sent)
            }
            try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body[position..<position + count]))))
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
