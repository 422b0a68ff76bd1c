import CacheProxyParsing
import CacheStore
import HLS
import SparseFile

/// Puts resources into the cache the way the proxy serves them, without a client: prefetching
/// and offline downloads both go through here, so whatever they cache plays back offline.
struct ResourceWarmer: Sendable {
    let environment: FetchEnvironment
    let lane: UpstreamLane.Kind
    /// How urgently a player needs what is warmed: fetches wait for, and pause behind, more
    /// urgent ones.
    let urgency: FetchUrgency
    /// The order among fetches of that urgency (``FetchOwnership``), lower first: a prefetch
    /// job's place in the app's list, which changes when the app posts a new list.
    var rank = FetchRank()
    /// The playback session whose traffic this is, if any.
    var session: SessionTraffic?
    /// The fields asked for the origin requests (a session's, a prefetch item's, a download's).
    var headers = OriginHeaderFields()

    /// A playlist, parsed, with the URL it came from (after redirects) and the bytes fetched
    /// for it (0 when a cached VOD copy was used).
    struct FetchedPlaylist {
        var playlist: HLSPlaylist
        var url: String
        var fetchedBytes: UInt64
    }

    /// Fetches `origin`'s playlist and stores it raw, as a player's request would.
    func playlist(_ origin: OriginURL) async throws -> FetchedPlaylist {
        let loaded = try await PlaylistLoader(environment: environment, lane: lane, urgency: urgency, headers: headers).load(origin, allowsStale: false)
        guard let playlist = loaded.playlist else {
            throw UpstreamError(.invalidResponse, "\(origin) is not a playlist")
        }
        return FetchedPlaylist(playlist: playlist, url: loaded.url, fetchedBytes: loaded.source == .origin ? UInt64(loaded.body.count) : 0)
    }

    /// Makes sure `range` of `origin` (all of it when nil) is cached: fetches what is missing,
    /// waits for what others are fetching, and retries a piece whose fetch failed, up to
    /// `attempts` times. Returns the bytes this call fetched.
    @discardableResult
    func bytes(_ origin: OriginURL, range: ByteRange? = nil, attempts: Int = 1) async throws -> UInt64 {
        let key = environment.upstream.entryKey(for: origin, headers: headers)
        let wanted = range ?? ByteRange(offset: 0, length: UInt64.max)
        guard let wanted else { return 0 }
        var fetched: UInt64 = 0
        var failures = 0
        while true {
            try Task.checkCancellation()
            let claim = try environment.store.claim(key: key, range: wanted)
            var lastError: UpstreamError?
            for fill in claim.fills {
                let start = fill.range.offset
                let ownership = FetchOwnership(
                    urgency: urgency, rank: rank, session: session, headers: headers, preemptible: true, withdrawable: fetched == 0)
                if let error = await environment.upstream.run(fill, from: origin, lane: lane, ownership: ownership) {
                    // Its owner left the list before this resource began: the job stops here.
                    if ownership.isWithdrawn { throw CancellationError() }
                    // Cut for a player's start: not a failure, the gap is claimed again below.
                    if !ownership.wasPreempted { lastError = error }
                }
                fetched += fill.position - start
            }
            if let lastError {
                failures += 1
                guard failures < attempts, lastError.isRetryable else { throw lastError }
                try await Task.sleep(for: .milliseconds(250 << min(failures, 5)))
                continue
            }
            // Pieces others were fetching: follow them to their end, then look again.
            let pending = environment.store.plan(key: key, range: wanted).pieces.first { $0.state != .cached }
            guard let pending else { return fetched }
            if pending.state == .missing && claim.fills.isEmpty {
                // Nothing could be claimed for it (a head-only entry's limit): it stays missing.
                throw UpstreamError(.invalidResponse, "\(origin): bytes \(pending.range) cannot be cached")
            }
            if pending.state == .inFlight {
                environment.upstream.scheduler.raise(key: key, range: pending.range, to: urgency, backgroundRank: rank.value)
                do {
                    _ = try await environment.store.reader(for: key).waitForBytes(at: pending.range.offset)
                } catch let error as CacheStoreError where error.code != .closed {
                    continue  // their fetch failed or ended short: claim it ourselves
                }
            }
        }
    }
}

extension UpstreamError {
    /// Whether trying again later may succeed: network trouble and server errors, not a 404.
    var isRetryable: Bool {
        switch code {
        case .unreachable, .truncated: true
        case .status(let status): status >= 500 || status == 429
        case .invalidResponse, .tooLarge, .storeFull, .refused, .notStorable: false
        }
    }
}
