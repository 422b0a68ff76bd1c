import CacheProxyParsing
import CacheStore
import NIOCore
import SparseFile

/// Serves a resource's bytes (anything that is not a playlist): from the cache when it has
/// them, otherwise by fetching only the missing pieces and streaming them to the client while
/// they are stored. Single ranges get 206, unsatisfiable ones 416, multiple ranges and invalid
/// `Range` headers the whole representation.
struct ByteResponder {
    let environment: HitEnvironment
    /// The playback session the request belongs to, if any.
    var session: SessionTraffic?
    /// The fields asked for the origin requests a miss makes (a session's, a player's); the
    /// app's per-origin fields are added by ``Upstream``.
    var headers = OriginHeaderFields()

    enum Outcome {
        case served
        /// The bytes turned out to be a playlist (by the origin's content type).
        case isPlaylist
    }

    func respond(origin: OriginURL, request: RequestHead, writer: ResponseWriter) async throws -> Outcome {
        do {
            return try await respondOrRelay(origin: origin, request: request, writer: writer)
        } catch let error as ByteDeliveryError {
            throw ProxyFailure(error)
        } catch let error as UnsatisfiableRange {
            throw ProxyFailure(error)
        }
    }

    private func respondOrRelay(origin: OriginURL, request: RequestHead, writer: ResponseWriter) async throws -> Outcome {
        do {
            return try await respondThroughCache(origin: origin, request: request, writer: writer)
        } catch let error where !writer.headSent && (error is StoreHasNoRoom || error is AnswerNotStorable) {
            // Nothing of it can be stored (a full disk, or an answer the origin says not to
            // store): the origin's answer is relayed as it is.
            if error is StoreHasNoRoom { environment.fetching.noteStoreHasNoRoom() }
            let key = environment.store.key(for: origin.string)
            try await OriginRelay(environment: environment.fetching)
                .respond(origin: origin, request: request, lane: lane(origin: origin, key: key, range: nil), headers: headers, writer: writer)
            return .served
        }
    }

    private func respondThroughCache(origin: OriginURL, request: RequestHead, writer: ResponseWriter) async throws -> Outcome {
        let store = environment.store
        let key = environment.upstream.entryKey(for: origin, headers: headers)
        let reader = store.reader(for: key)
        let session = FetchSession(environment: environment.fetching, origin: origin, key: key, session: self.session, headers: headers)
        defer {
            session.end()
            writer.cache = session.outcome
        }
        var facts = EntryFacts(reader.file)
        if facts.isPlaylist { return .isPlaylist }
        var range = ByteResponsePlan.requestedRange(request.headers, facts: facts, limits: environment.configuration.limits.range)
        let length: UInt64
        if let known = facts.length {
            length = known
        } else {
            // Nothing tells the length yet: start fetching what was asked for (from its first
            // byte to the end when open), or probe one byte, and read the length from the origin.
            let bounds: (lower: UInt64, upper: UInt64)
            switch (writer.isHead, range) {
            case (true, _), (false, .suffix?): bounds = (0, 1)
            case (false, .closed(let first, let last)?): bounds = (first, last == UInt64.max ? last : last + 1)
            case (false, .from(let first)?): bounds = (first, UInt64.max)
            case (false, nil): bounds = (0, UInt64.max)
            }
            guard let window = ByteRange(from: bounds.lower, to: bounds.upper) else {
                throw ProxyFailure(status: 400, "bad range")
            }
            try session.claimAndFetch(window, lane: lane(origin: origin, key: key, range: window))
            try await awaitFirstByte(at: window.offset, reader: reader, session: session)
            facts = EntryFacts(reader.file)
            if facts.isPlaylist { return .isPlaylist }
            guard let learned = facts.length else {
                try await streamWhole(facts: facts, origin: origin, key: key, reader: reader, session: session, writer: writer)
                return .served
            }
            length = learned
            range = ByteResponsePlan.requestedRange(request.headers, facts: facts, limits: environment.configuration.limits.range)
        }

        let plan = try ByteResponsePlan(facts: facts, length: length, range: range, isHead: writer.isHead)
        guard let wanted = plan.body else {
            try await writer.sendComplete(status: plan.status, headers: plan.headers, body: nil)
            return .served
        }
        let lane = lane(origin: origin, key: key, range: wanted)
        try session.claimAndFetch(wanted, lane: lane)
        let streamer = EntryStreamer(environment: environment, reader: reader, session: session, writer: writer)
        if let body = try streamer.readWhole(wanted) {
            // Small and cached: head, body and end leave in one write.
            try await writer.sendComplete(status: plan.status, headers: plan.headers, body: body)
            return .served
        }
        // The head waits for the first byte, so an origin failing at once gets a proper error.
        try await awaitFirstByte(at: wanted.offset, reader: reader, session: session)
        try await writer.sendHead(status: plan.status, headers: plan.headers)
        try await streamer.stream(from: wanted.offset, to: wanted.end, lane: lane)
        try await writer.sendEnd()
        return .served
    }

    /// The origin does not know the length either (a chunked body): the whole representation
    /// is streamed as it comes; a Range is ignored, as RFC 9110 allows.
    private func streamWhole(
        facts: EntryFacts, origin: OriginURL, key: String, reader: EntryReader, session: FetchSession, writer: ResponseWriter
    ) async throws {
        if let whole = ByteRange(from: 0, to: UInt64.max) {
            try session.claimAndFetch(whole, lane: lane(origin: origin, key: key, range: nil))
        }
        try await writer.sendHead(status: .ok, headers: ByteResponsePlan.headers(facts, length: nil))
        if !writer.isHead {
            try await EntryStreamer(environment: environment, reader: reader, session: session, writer: writer)
                .stream(from: 0, to: nil, lane: lane(origin: origin, key: key, range: nil))
        }
        try await writer.sendEnd()
    }

    /// Waits until byte `offset` is cached; turns a failed fetch of our own into its error, and
    /// retries once when someone else's failed. Returns when the byte is there, lies past the
    /// end of the resource, or cannot be stored for lack of room (the response then streams
    /// from the origin).
    private func awaitFirstByte(at offset: UInt64, reader: EntryReader, session: FetchSession) async throws {
        for attempt in 0..<2 {
            do {
                _ = try await reader.waitForBytes(at: offset)
                return
            } catch let error as CacheStoreError where EntryStreamer.recoverable.contains(error.code) {
                if let failure = await session.ownFailure(at: offset) {
                    if failure.code == .notStorable { throw AnswerNotStorable() }
                    // With no room in the store the response streams from the origin directly;
                    // the failed fetch has told the length.
                    guard failure.code == .storeFull else { throw ProxyFailure(failure) }
                    // Without an entry nothing tells the response's length: relay it whole.
                    guard reader.file != nil else { throw StoreHasNoRoom() }
                    return
                }
                if let length = reader.file?.contentLength, offset >= length { return }
                guard attempt == 0 else { throw ProxyFailure(status: 502, "the origin did not deliver byte \(offset)") }
                if let range = ByteRange(from: offset, to: UInt64.max) {
                    try session.claimAndFetch(range, lane: .express)
                }
            }
        }
    }

    /// Which lane fetches for `range` take: probes, init segments and keys go express.
    func lane(origin: OriginURL, key: String, range: ByteRange?) -> UpstreamLane.Kind {
        if let range, range.length <= environment.configuration.expressProbeLimit { return .express }
        if environment.fetching.express.contains(key, range: range) { return .express }
        return .segment
    }
}
