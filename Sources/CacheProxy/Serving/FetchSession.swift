import CacheProxyParsing
import CacheStore
import SparseFile

/// The fetches one response started: it claims the missing pieces of what it serves, starts a
/// fetch for each, and can tell afterwards whether a byte it waited for in vain was its own
/// fetch's to deliver (then the response fails with that fetch's error) or someone else's
/// (then it claims the bytes again and fetches them itself).
///
/// Its fetches are as urgent as the player's need (``FetchUrgency``): a start when a playlist
/// the player loaded named the bytes as its first segments, or they are an init section, key or
/// probe; its next segments otherwise. Fetches of others it follows become as urgent.
final class FetchSession {
    let context: ProxyContext
    let origin: OriginURL
    let key: String
    private let session: SessionTraffic?
    /// The fields asked for this response's origin requests (a session's, a player's).
    let headers: OriginHeaderFields
    /// Made at the first claim, when the range tells how urgent the response is.
    private var ownership: FetchOwnership?
    private var fetches: [(range: ByteRange, task: Task<UpstreamError?, Never>)] = []
    /// How the response used the cache: what its first claim found (a response that claims
    /// nothing is answered from what the cache knows), and whether it had to pass bytes through.
    private(set) var outcome = CacheOutcome.hit
    private var hasClaimed = false

    init(context: ProxyContext, origin: OriginURL, key: String, session: SessionTraffic?, headers: OriginHeaderFields) {
        self.context = context
        self.origin = origin
        self.key = key
        self.session = session
        self.headers = headers
    }

    /// Claims the gaps of `range` (bytes cached or in flight elsewhere are left alone: that is
    /// the coalescing) and starts a fetch for each.
    func claimAndFetch(_ range: ByteRange, lane: UpstreamLane.Kind) throws {
        let claim: CacheStore.Claim
        do {
            // One response counts once: its later claims (the rest, once the length is known)
            // would count a hit for bytes its own first claim fetched.
            claim = try context.store.claim(key: key, range: range, counts: !hasClaimed)
        } catch where error.code == .storeFull || error.code == .diskFull {
            throw StoreHasNoRoom()
        } catch {
            throw ProxyFailure(status: 503, "the cache cannot take new bytes: \(error)")
        }
        if !hasClaimed {
            hasClaimed = true
            outcome = CacheOutcome(plan: claim.plan)
        }
        let ownership = owner(range: range, lane: lane)
        let scheduler = context.upstream.scheduler
        for piece in claim.plan.pieces where piece.state == .inFlight {
            scheduler.raise(key: key, range: piece.range, to: ownership.urgency, follower: ownership)
        }
        for fill in claim.fills {
            let (upstream, origin) = (context.upstream, origin)
            guard let task = context.fetches.start({ await upstream.run(fill, from: origin, lane: lane, ownership: ownership) }) else {
                fill.fail(CancellationError())
                throw ProxyFailure(status: 503, "the proxy is shutting down")
            }
            fetches.append((fill.range, task))
        }
    }

    private func owner(range: ByteRange, lane: UpstreamLane.Kind) -> FetchOwnership {
        if let ownership { return ownership }
        let isStart = lane == .express || context.startingSegments.contains(key, range: range)
        let made = FetchOwnership(urgency: isStart ? .start : .ahead, session: session, headers: headers)
        ownership = made
        return made
    }

    /// The error of this session's fetch that was to deliver byte `position`, once it ended;
    /// nil when no fetch of ours covered it or ours ended without error.
    func ownFailure(at position: UInt64) async -> UpstreamError? {
        for fetch in fetches where fetch.range.offset <= position && position < fetch.range.end {
            if let error = await fetch.task.value { return error }
        }
        return nil
    }

    /// The store had no room: the rest of the response streams from the origin unstored.
    func passesThrough() {
        outcome = outcome.passingThrough
    }

    /// The response is over: fetches it started are orphaned, and go on only while nothing
    /// more urgent needs the link and little is left of them.
    func end() {
        if let ownership { context.upstream.scheduler.ownerLeft(ownership) }
    }
}
