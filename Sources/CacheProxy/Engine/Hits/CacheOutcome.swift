import CacheProxyParsing
import CacheStore

/// How a response used the cache, as the access log and the metrics tell it.
struct CacheOutcome: Sendable, Equatable {
    enum Kind: String, Sendable {
        /// Every byte came from the cache.
        case hit
        /// Some bytes were cached, the rest came from the origin.
        case partial
        /// Every byte came from the origin (and was stored).
        case miss
        /// The response went to the origin without the cache: a low-latency playlist request,
        /// or bytes streamed past a full store.
        case pass
    }

    var kind: Kind
    /// For a partial response: the bytes of its body the cache held when it started.
    var cachedBytes: UInt64 = 0

    static let hit = CacheOutcome(kind: .hit)
    static let miss = CacheOutcome(kind: .miss)
    static let pass = CacheOutcome(kind: .pass)

    /// What a plan of the response's body says: all cached, none, or some.
    init(plan: RangePlan) {
        var cached: UInt64 = 0
        var other = false
        for piece in plan.pieces {
            if piece.state == .cached {
                cached = cached.addingReportingOverflow(piece.range.length).overflow ? UInt64.max : cached + piece.range.length
            } else {
                other = true
            }
        }
        kind = !other ? .hit : cached == 0 ? .miss : .partial
        cachedBytes = cached
    }

    init(kind: Kind, cachedBytes: UInt64 = 0) {
        self.kind = kind
        self.cachedBytes = cachedBytes
    }

    /// A playlist's: cached (even stale) is a hit, fetched a miss, and fetched for a player's
    /// delivery directives (never answered from the cache) a pass.
    init(playlist source: PlaylistLoader.Source, directives: DeliveryDirectives) {
        switch source {
        case .cache, .stale: kind = .hit
        case .origin: kind = directives.isEmpty ? .miss : .pass
        }
    }

    /// The same response once the rest of it had to be streamed from the origin unstored.
    var passingThrough: CacheOutcome {
        kind == .miss ? .pass : CacheOutcome(kind: .partial, cachedBytes: cachedBytes)
    }
}
