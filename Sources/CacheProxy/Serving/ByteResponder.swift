import CacheProxyParsing
import CacheStore
import NIOCore
import NIOHTTP1
import SparseFile

/// Serves a resource's bytes (anything that is not a playlist): from the cache when it has
/// them, otherwise by fetching only the missing pieces and streaming them to the client while
/// they are stored. Single ranges get 206, unsatisfiable ones 416, multiple ranges and invalid
/// `Range` headers the whole representation.
struct ByteResponder {
    let context: ProxyContext

    enum Outcome {
        case served
        /// The bytes turned out to be a playlist (by the origin's content type).
        case isPlaylist
    }

    func respond(origin: OriginURL, request: HTTPRequestHead, writer: ResponseWriter) async throws -> Outcome {
        let store = context.store
        let key = store.key(for: origin.string)
        let reader = store.reader(for: key)
        let session = FetchSession(context: context, origin: origin, key: key)
        defer { session.end() }
        var facts = EntryFacts(reader.file)
        if facts.isPlaylist { return .isPlaylist }
        var range = requestedRange(request.headers, facts: facts)

        if facts.length == nil {
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
            if facts.length == nil {
                // The origin does not know the length either (a chunked body): the whole
                // representation is streamed as it comes; a Range is ignored, as RFC 9110 allows.
                range = nil
                if let whole = ByteRange(from: 0, to: UInt64.max) {
                    try session.claimAndFetch(whole, lane: lane(origin: origin, key: key, range: nil))
                }
                try await writer.sendHead(status: .ok, headers: headers(facts, length: nil))
                if !writer.isHead {
                    try await EntryStreamer(context: context, reader: reader, session: session, writer: writer)
                        .stream(from: 0, to: nil, lane: lane(origin: origin, key: key, range: nil))
                }
                try await writer.sendEnd()
                return .served
            }
        }
        guard let length = facts.length else { return .served }

        let status: HTTPResponseStatus
        let selected: Range<UInt64>
        if let range {
            guard let resolved = range.resolve(length: length) else {
                var headers = HTTPHeaders()
                headers.add(name: "Content-Range", value: "bytes */\(length)")
                headers.add(name: "Accept-Ranges", value: "bytes")
                throw ProxyFailure(status: 416, "range not satisfiable for a length of \(length)", headers: headers)
            }
            status = .partialContent
            selected = resolved
        } else {
            status = .ok
            selected = 0..<length
        }
        var headers = headers(facts, length: UInt64(selected.count))
        if status == .partialContent {
            headers.add(name: "Content-Range", value: "bytes \(selected.lowerBound)-\(selected.upperBound - 1)/\(length)")
        }
        guard !writer.isHead, let wanted = ByteRange(from: selected.lowerBound, to: selected.upperBound), !wanted.isEmpty else {
            try await writer.sendComplete(status: status, headers: headers, body: nil)
            return .served
        }
        let lane = lane(origin: origin, key: key, range: wanted)
        try session.claimAndFetch(wanted, lane: lane)
        let streamer = EntryStreamer(context: context, reader: reader, session: session, writer: writer)
        if let body = try streamer.readWhole(wanted) {
            // Small and cached: head, body and end leave in one write.
            try await writer.sendComplete(status: status, headers: headers, body: body)
            return .served
        }
        // The head waits for the first byte, so an origin failing at once gets a proper error.
        try await awaitFirstByte(at: wanted.offset, reader: reader, session: session)
        try await writer.sendHead(status: status, headers: headers)
        try await streamer.stream(from: wanted.offset, to: wanted.end, lane: lane)
        try await writer.sendEnd()
        return .served
    }

    /// The range to serve: one valid range, or nil for the whole representation (no `Range`,
    /// several ranges, a header that does not parse, or an `If-Range` that does not match).
    private func requestedRange(_ headers: HTTPHeaders, facts: EntryFacts) -> RangeSpecifier? {
        guard let value = headers.first(name: "range"),
              case .single(let specifier)? = try? RangeRequest(parsing: Array(value.utf8), limits: context.configuration.limits.range)
        else { return nil }
        if let ifRange = headers.first(name: "if-range"), !facts.matches(ifRange: ifRange) { return nil }
        return specifier
    }

    /// Waits until byte `offset` is cached; turns a failed fetch of our own into its error, and
    /// retries once when someone else's failed. Returns when the byte is there or lies past the
    /// end of the resource.
    private func awaitFirstByte(at offset: UInt64, reader: EntryReader, session: FetchSession) async throws {
        for attempt in 0..<2 {
            do {
                _ = try await reader.waitForBytes(at: offset)
                return
            } catch let error as CacheStoreError where [.notCached, .fillFailed, .entryReplaced].contains(error.code) {
                if let failure = await session.ownFailure(at: offset) { throw ProxyFailure(failure) }
                if let length = reader.file?.contentLength, offset >= length { return }
                guard attempt == 0 else { throw ProxyFailure(status: 502, "the origin did not deliver byte \(offset)") }
                if let range = ByteRange(from: offset, to: UInt64.max) {
                    try session.claimAndFetch(range, lane: .express)
                }
            }
        }
    }

    private func headers(_ facts: EntryFacts, length: UInt64?) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.reserveCapacity(6)
        headers.add(name: "Content-Type", value: facts.contentType ?? "application/octet-stream")
        if let length { headers.add(name: "Content-Length", value: String(length)) }
        headers.add(name: "Accept-Ranges", value: "bytes")
        if let entityTag = facts.entityTag { headers.add(name: "ETag", value: entityTag) }
        if let lastModified = facts.lastModified { headers.add(name: "Last-Modified", value: lastModified) }
        return headers
    }

    /// Which lane fetches for `range` take: probes, init segments and keys go express.
    func lane(origin: OriginURL, key: String, range: ByteRange?) -> UpstreamLane.Kind {
        if let range, range.length <= context.configuration.expressProbeLimit { return .express }
        if context.express.contains(key, range: range) { return .express }
        return .segment
    }
}
