import CacheProxyParsing
import CacheStore
import Logging
import NIOCore
import SparseFile
import Synchronization

/// Everything the proxy asks of origins goes through here: two lanes with an ``OriginClient``
/// each (so their connection pools do not queue behind each other either), the circuit breakers,
/// and the code that streams an origin body into a fill.
final class Upstream: Sendable {
    let express: UpstreamLane
    let segments: UpstreamLane
    let breakers: OriginBreakers
    /// Which transfers may use the link now: the most urgent first.
    let scheduler = LinkScheduler()
    /// What every hop and every connection to an origin is checked against.
    let originGuard: OriginGuard
    /// Resources whose origin answered with `Vary`, so that each value gets its own entry.
    let variations = VariedResources()
    /// Which answers are passed through rather than stored (`no-store`, `Vary: *`, `private`
    /// beyond loopback).
    let storageRule: StorageRule
    private let expressClient: any OriginClient
    private let segmentClient: any OriginClient
    private let store: CacheStore
    private let configuration: CacheProxyConfiguration
    private let counters: ProxyCounters
    private let metrics: ProxyMetrics?
    private let logger: Logger
    /// The app's header fields per origin host; replaced while the proxy runs for tokens that
    /// expire (``CacheProxy/setOriginHeaders(_:)``).
    private let originHeaderRules: Mutex<OriginHeaderRules>

    init(store: CacheStore, configuration: CacheProxyConfiguration, originClient: OriginClientKind, group: any EventLoopGroup,
         counters: ProxyCounters, metrics: ProxyMetrics?, logger: Logger) {
        self.store = store
        self.configuration = configuration
        self.counters = counters
        self.metrics = metrics
        self.logger = logger
        express = UpstreamLane(kind: .express, capacity: configuration.expressConcurrency)
        segments = UpstreamLane(kind: .segment, capacity: configuration.segmentConcurrency)
        breakers = OriginBreakers(configuration: configuration.breaker)
        originGuard = OriginGuard(configuration: configuration)
        originHeaderRules = Mutex(OriginHeaderRules(configuration.originHeaders))
        storageRule = StorageRule(configuration: configuration)
        expressClient = Self.makeClient(originClient, connections: configuration.expressConcurrency, configuration: configuration,
                                        group: group, originGuard: originGuard)
        segmentClient = Self.makeClient(originClient, connections: configuration.segmentConcurrency, configuration: configuration,
                                        group: group, originGuard: originGuard)
    }

    private static func makeClient(
        _ kind: OriginClientKind, connections: Int, configuration: CacheProxyConfiguration, group: any EventLoopGroup,
        originGuard: OriginGuard
    ) -> any OriginClient {
        kind.makeClient(OriginClientSettings(
            connectTimeout: configuration.timeouts.originConnect, readTimeout: configuration.timeouts.originRead,
            connectionsPerHost: connections, eventLoopGroup: group, checkPeer: originGuard.checkPeer))
    }

    func shutdown() async {
        await expressClient.shutdown()
        await segmentClient.shutdown()
    }

    func lane(_ kind: UpstreamLane.Kind) -> UpstreamLane { kind == .express ? express : segments }
    private func client(_ kind: UpstreamLane.Kind) -> any OriginClient { kind == .express ? expressClient : segmentClient }

    /// Replaces the app's header fields per origin host for every request from now on.
    func setOriginHeaders(_ patterns: [String: OriginHeaderFields]) {
        let rules = OriginHeaderRules(patterns)
        originHeaderRules.withLock { $0 = rules }
    }

    // MARK: Requests

    /// Sends a GET and returns the response once its head arrived. Network failures before the
    /// head feed the origin's breaker; any answer closes it (a 401 or 403 too: the origin is
    /// there, the credentials are not).
    ///
    /// - Parameter headers: the fields asked for this request (a session's, a prefetch item's,
    ///   a player's), sent over the app's fields for each hop's host (``OriginHeaderRules``).
    private func send(
        _ origin: OriginURL, range: String?, lane: UpstreamLane.Kind, validators: EntryMetadata? = nil,
        headers: OriginHeaderFields
    ) async throws -> (response: OriginResponse, url: String) {
        guard breakers.admit(origin.authority) else {
            // What made the breaker open is what the user needs to know, not that it is open.
            throw UpstreamError(.unreachable, breakers.lastFailure(origin.authority) ?? "\(origin.authority) does not answer")
        }
        var fields = HeaderFields()
        fields.add(name: "User-Agent", value: "SparseCache")
        fields.add(name: "Accept-Encoding", value: "identity")
        if let range { fields.add(name: "Range", value: range) }
        if let entityTag = validators?.entityTag { fields.add(name: "If-None-Match", value: entityTag) }
        if let lastModified = validators?.lastModified { fields.add(name: "If-Modified-Since", value: lastModified) }
        counters.upstreamRequestStarted()
        metrics?.recordUpstreamRequest(lane: lane)
        let sent = ContinuousClock.now
        do {
            let rules = originHeaderRules.withLock { $0 }
            let response = try await originGuard.execute(
                fields, to: origin, client: client(lane), deadline: .now() + .init(configuration.timeouts.originResponseHead),
                headers: { hop in rules.fields(for: hop, first: origin, requested: headers) })
            metrics?.recordUpstreamResponse(lane: lane, after: .now - sent)
            if breakers.recordSuccess(origin.authority) {
                logger.notice("circuit breaker closed: the origin answers again", metadata: ["origin": "\(origin.authority)"])
            }
            return response
        } catch where error is CancellationError || Task.isCancelled {
            // A fetch cut while it waits for the answer: the origin did nothing wrong.
            breakers.recordAbandoned(origin.authority)
            throw CancellationError()
        } catch let refusal as UpstreamError where refusal.code == .refused {
            breakers.recordAbandoned(origin.authority)
            throw refusal
        } catch {
            if breakers.recordFailure(origin.authority) {
                logger.notice("circuit breaker opened: the origin is unreachable, requests fail at once until it is tried again",
                              metadata: ["origin": "\(origin.authority)", "retryAfter": "\(configuration.breaker.coolDown)"])
            }
            logger.debug("origin unreachable", metadata: ["url": "\(origin)", "error": "\(error)"])
            let reason = OriginFailureText.reason(error, origin: origin, timeouts: configuration.timeouts)
            breakers.noteFailure(reason, for: origin.authority)
            throw UpstreamError(.unreachable, reason)
        }
    }

    /// Fetches `fill`'s bytes from `origin` and stores them as they arrive (followers of the
    /// entry see each chunk at once). Ends the fill: finished, or failed with what it had kept.
    ///
    /// - Returns: nil when the fill completed, the error otherwise.
    func run(_ fill: FillHandle, from origin: OriginURL, lane: UpstreamLane.Kind, ownership: FetchOwnership) async -> UpstreamError? {
        var waiting: UInt64?
        // A wait whose transfer never started (cancelled in its lane's queue) holds none back.
        defer { if let waiting { scheduler.forget(waiting) } }
        do {
            // A less urgent fetch does not even ask before its turn: the request would queue its
            // answer behind the bytes a player waits for.
            try await scheduler.escalating(ownership) {
                let turn = try await scheduler.waitForTurn(ownership, key: fill.key, range: fill.range)
                waiting = turn
                try await self.lane(lane).run {
                    let counters = self.counters
                    let cuttable = PreemptibleFetch {
                        ownership.notePreempted()
                        counters.recordPreemptedTransfer()
                    }
                    try await scheduler.transfer(
                        key: fill.key, range: fill.range, ownership: ownership, replacing: turn, preempt: { cuttable.preempt() }
                    ) {
                        try await cuttable.run { try await self.fetch(into: fill, from: origin, lane: lane, ownership: ownership, cuttable: cuttable) }
                    }
                }
            }
            return nil
        } catch let error as UpstreamError {
            fill.fail(error)
            // An answer passed through rather than stored is no failure of the session's.
            if error.code != .notStorable { ownership.session?.recordFailure(error.message) }
            return error
        } catch let error as CacheStoreError where error.code == .storeFull || error.code == .diskFull {
            fill.fail(error)
            return UpstreamError(.storeFull, error.message)
        } catch is CancellationError {
            fill.fail(CancellationError())
            return UpstreamError(.truncated, "the fetch was cancelled")
        } catch {
            fill.fail(error)
            return UpstreamError(.truncated, "\(error)")
        }
    }

    /// Sends a GET for bytes `start..<end` (`UInt64.max`: to the end) and checks the answer.
    private func openRange(
        _ origin: OriginURL, from start: UInt64, to end: UInt64, lane: UpstreamLane.Kind, headers: OriginHeaderFields
    ) async throws -> RangedResponse.Answer {
        let rangeHeader = RangedResponse.header(from: start, to: end)
        let response = try await send(origin, range: rangeHeader, lane: lane, headers: headers).response
        let answer = try RangedResponse.check(response, origin: origin, start: start, rangeHeader: rangeHeader)
        if case .bytes(let ranged) = answer, ranged.head.status == 200, start > 0 { counters.recordIgnoredRange() }
        return answer
    }

    private func fetch(
        into fill: FillHandle, from origin: OriginURL, lane: UpstreamLane.Kind, ownership: FetchOwnership, cuttable: PreemptibleFetch
    ) async throws {
        let response: RangedResponse
        var pace = TransferPace(askedAt: .now)
        let answer = try await openRange(origin, from: fill.range.offset, to: fill.range.end, lane: lane, headers: ownership.headers)
        pace.answerArrived(at: .now)
        switch answer {
        case .pastEnd(let head):
            // The fill starts at or past the end: the answer carries the length, nothing to store.
            try fill.start(head.metadata)
            try fill.finish()
            return
        case .bytes(let ranged):
            response = ranged
        }
        if let refusal = storageRefusal(response.head, key: fill.key, origin: origin, headers: ownership.headers) {
            throw UpstreamError(.notStorable, "\(origin): \(refusal)")
        }
        try fill.start(response.head.metadata)
        if !response.head.vary.names.isEmpty, (store.entry(for: fill.key)?.cachedBytes ?? 0) == 0 {
            // The names (never the values) in the file, for `sparsecache inspect`; a missing
            // attribute costs nothing but that.
            try? store.setVaryNames(response.head.vary.names, for: fill.key)
        }
        var writer = FillWriter(fill: fill, bodyStart: response.bodyStart, resourceLength: response.head.metadata.contentLength)
        var iterator = response.body.makeAsyncIterator()
        while writer.wantsMore {
            if !scheduler.mayProceed(ownership) {
                // Something more urgent uses the link: an orphan gives way for good (what it
                // stored stays), anything else stops reading until its turn comes back.
                if ownership.urgency == .orphaned {
                    counters.recordCutOrphan()
                    throw CancellationError()
                }
                // A preemptible one is cut rather than paused while a player waits to start
                // (its `preempt` cancels this task, here or wherever it waits), unless its rest
                // ends soon (``TransferPace``).
                try Task.checkCancellation()
                counters.recordPausedTransfer()
                try await scheduler.waitForTurn(ownership)
                continue
            }
            guard let chunk = try await iterator.next() else { break }
            try writer.write(chunk)
            pace.received(chunk.readableBytes)
            cuttable.noteEndsSoon(pace.endsSoon(remaining: writer.remaining, now: .now))
            counters.recordFetched(UInt64(chunk.readableBytes))
            ownership.session?.recordFetched(UInt64(chunk.readableBytes))
            if ownership.urgency == .orphaned, writer.remaining > configuration.orphanFetchLimit {
                throw CancellationError()
            }
        }
        if writer.wantsMore, let promisedEnd = response.promisedEnd, writer.position < promisedEnd {
            throw UpstreamError(.truncated, "\(origin): the body ended at \(writer.position) of \(promisedEnd)")
        }
        // Without a known length, only the end of a whole (200) body is the end of the resource.
        let resourceEnded = response.head.metadata.contentLength.map { fill.position >= $0 } ?? (response.head.status == 200 && writer.wantsMore)
        try fill.finish(resourceEnded: resourceEnded)
    }

    /// The key of the entry that holds `origin`'s bytes for a request asked with `headers`: the
    /// store's key, with the suffix of ``VariedResources`` when the resource is known to vary.
    func entryKey(for origin: OriginURL, headers: OriginHeaderFields) -> String {
        let key = store.key(for: origin.string)
        guard let names = variations.names(of: key) else { return key }
        return variedKey(key, names: names, origin: origin, headers: headers)
    }

    private func variedKey(_ key: String, names: [String], origin: OriginURL, headers: OriginHeaderFields) -> String {
        guard !names.isEmpty else { return key }
        let sent = originHeaderRules.withLock { $0 }.fields(for: origin, first: origin, requested: headers)
        return VariedResources.key(key, names: names) { name in
            if let value = sent.value(named: name) { return value }
            // What ``send`` sends unless a field replaces it.
            switch name {
            case "user-agent": return "SparseCache"
            case "accept-encoding": return "identity"
            default: return nil
            }
        }
    }

    /// Why the answer `head` must not be stored under `key`, or nil when it may (RFC 9111, for
    /// a private cache): `no-store` (unless the configuration says otherwise), `Vary: *`,
    /// `private` on a proxy listening beyond loopback (a shared cache), and an answer that
    /// varies on fields `key` was not made from (it teaches ``variations``: the next request
    /// gets the right entry).
    func storageRefusal(_ head: OriginResponseHead, key: String, origin: OriginURL, headers: OriginHeaderFields) -> String? {
        if let refusal = storageRule.refusal(cacheControl: head.cacheControl, vary: head.vary) { return refusal }
        let plain = store.key(for: origin.string)
        if head.vary.names != variations.names(of: plain) ?? [] { variations.learn(head.vary.names, for: plain) }
        let expected = variedKey(plain, names: head.vary.names, origin: origin, headers: headers)
        guard key == expected else { return "the answer varies on \(head.vary.names.joined(separator: ", ")), stored per value from now on" }
        return nil
    }

    /// Fetches a whole resource into memory, up to `limit` bytes (for playlists), on the express
    /// lane unless told otherwise (prefetching uses the segment lane), once no fetch more urgent
    /// than `urgency` is in flight.
    ///
    /// - Parameter validators: the ETag and Last-Modified of a cached copy: the request is
    ///   conditional, and a `304` comes back as a head with that status and no body.
    /// - Returns: the head, the body and the URL after redirects.
    func fetchWhole(
        _ origin: OriginURL, limit: Int, lane kind: UpstreamLane.Kind = .express, urgency: FetchUrgency,
        validators: EntryMetadata? = nil, headers: OriginHeaderFields = OriginHeaderFields()
    ) async throws -> (OriginResponseHead, [UInt8], String) {
        let ownership = FetchOwnership(urgency: urgency, headers: headers)
        try await scheduler.waitForTurn(ownership)
        return try await lane(kind).run {
            try await scheduler.transfer(key: origin.string, range: nil, ownership: ownership) {
                try await receiveWhole(origin, limit: limit, lane: kind, validators: validators, headers: headers)
            }
        }
    }

    private func receiveWhole(
        _ origin: OriginURL, limit: Int, lane kind: UpstreamLane.Kind, validators: EntryMetadata?, headers: OriginHeaderFields
    ) async throws -> (OriginResponseHead, [UInt8], String) {
        let (response, url) = try await send(origin, range: nil, lane: kind, validators: validators, headers: headers)
        let head = try OriginResponseHead(status: response.status, headers: response.headers)
        if head.status == 304, validators != nil {
            return (head, [], url)
        }
        guard head.status == 200 else {
            throw UpstreamError(.status(head.status), "\(origin): the origin answered \(head.status)")
        }
        if let length = head.contentLength, length > UInt64(limit) {
            throw UpstreamError(.tooLarge, "\(origin): a playlist of \(length) bytes is over the \(limit)-byte limit")
        }
        var body: [UInt8] = []
        for try await chunk in response.body {
            guard body.count + chunk.readableBytes <= limit else {
                throw UpstreamError(.tooLarge, "\(origin): the playlist is over the \(limit)-byte limit")
            }
            body.append(contentsOf: chunk.readableBytesView)
        }
        if let length = head.contentLength, UInt64(body.count) < length {
            throw UpstreamError(.truncated, "\(origin): the playlist ended at \(body.count) of \(length) bytes")
        }
        counters.recordFetched(UInt64(body.count))
        return (head, body, url)
    }

    /// Sends `origin` a GET with the client's `Range` (when any) and hands the checked head and
    /// the body to `respond`, nothing stored: the way a response is served when the store cannot
    /// take a new entry at all (a full disk).
    func relay(
        _ origin: OriginURL, range: String?, lane: UpstreamLane.Kind, headers: OriginHeaderFields,
        respond: (OriginResponseHead, OriginBody) async throws -> Void
    ) async throws {
        try await self.lane(lane).run {
            let response = try await send(origin, range: range, lane: lane, headers: headers).response
            try await respond(try OriginResponseHead(status: response.status, headers: response.headers), response.body)
        }
    }

    /// Streams bytes `start..<end` (to the end when `end` is nil) of `origin` to `consume`
    /// without storing them: the way out when the store has no room.
    ///
    /// - Parameter entityTag: the ETag of the bytes sent so far; a response with another one is
    ///   refused rather than mixed in.
    func stream(
        _ origin: OriginURL, from start: UInt64, to end: UInt64?, entityTag: String?, lane: UpstreamLane.Kind,
        headers: OriginHeaderFields, into consume: (ByteBuffer) async throws -> Void
    ) async throws {
        try await self.lane(lane).run {
            guard case .bytes(let response) = try await openRange(origin, from: start, to: end ?? UInt64.max, lane: lane, headers: headers) else {
                throw UpstreamError(.status(416), "\(origin): the origin answered 416")
            }
            if let entityTag, let other = response.head.metadata.entityTag, other != entityTag {
                throw UpstreamError(.invalidResponse, "\(origin): the resource changed while it was served")
            }
            var window = OriginBodyWindow(bodyStart: response.bodyStart, start: start, end: end ?? UInt64.max)
            for try await chunk in response.body {
                if let wanted = window.take(chunk) {
                    counters.recordFetched(UInt64(wanted.readableBytes))
                    try await consume(wanted)
                }
                if window.isComplete { return }
            }
            if let end, window.position < end {
                throw UpstreamError(.truncated, "\(origin): the body ended at \(window.position) of \(end)")
            }
        }
    }
}
