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
/// probe; a playing player's next segments while its buffer lasts (``PlaybackTimeline``), and
/// as a start once it is about to run out. Fetches of others it follows become as urgent.
final class FetchSession {
    let environment: FetchEnvironment
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
    private var followsOthers = false
    /// The offset of the start segment this response serves, if it serves one.
    private var startsPlaybackAt: UInt64?
    /// Raises the fetches of others it follows when the player's buffer is about to run out.
    private var followedEscalation: Task<Void, Never>?

    init(environment: FetchEnvironment, origin: OriginURL, key: String, session: SessionTraffic?, headers: OriginHeaderFields) {
        self.environment = environment
        self.origin = origin
        self.key = key
        self.session = session
        self.headers = headers
    }

    /// Claims the gaps of `range` (bytes cached or in flight elsewhere are left alone: that is
    /// the coalescing) and starts a fetch for each.
    ///
    /// - Throws: ``StoreHasNoRoom`` when the store can take none of it, ``ByteDeliveryError``
    ///   when it refuses the claim otherwise or the proxy is shutting down.
    func claimAndFetch(_ range: ByteRange, lane: UpstreamLane.Kind) throws {
        let claim: CacheStore.Claim
        do {
            // One response counts once: its later claims (the rest, once the length is known)
            // would count a hit for bytes its own first claim fetched.
            claim = try environment.store.claim(key: key, range: range, counts: !hasClaimed)
        } catch where error.code == .storeFull || error.code == .diskFull {
            throw StoreHasNoRoom()
        } catch {
            throw ByteDeliveryError.storeRefused(error)
        }
        if !hasClaimed {
            hasClaimed = true
            outcome = CacheOutcome(plan: claim.plan)
        }
        let ownership = owner(range: range, lane: lane)
        let scheduler = environment.upstream.scheduler
        for piece in claim.plan.pieces where piece.state == .inFlight {
            scheduler.raise(key: key, range: piece.range, to: ownership.urgency, follower: ownership)
            followsOthers = true
        }
        if followsOthers, followedEscalation == nil, let deadline = ownership.escalation {
            // Fetches of others it follows (a prefetch of this very segment) are as urgent as
            // the player, at the player's deadline too.
            let key = key
            followedEscalation = Task {
                try? await Task.sleep(until: deadline, clock: .continuous)
                guard !Task.isCancelled else { return }
                scheduler.raise(key: key, range: nil, to: .start, follower: ownership)
            }
        }
        for fill in claim.fills {
            let (upstream, origin) = (environment.upstream, origin)
            guard let task = environment.fetches.start(ownership: ownership, { await upstream.run(fill, from: origin, lane: lane, ownership: ownership) }) else {
                fill.fail(CancellationError())
                throw ByteDeliveryError.shuttingDown
            }
            fetches.append((fill.range, task))
        }
    }

    private func owner(range: ByteRange, lane: UpstreamLane.Kind) -> FetchOwnership {
        if let ownership { return ownership }
        let made: FetchOwnership
        if lane == .express || environment.startingSegments.contains(key, range: range) {
            startsPlaybackAt = range.offset
            made = FetchOwnership(urgency: .start, session: session, headers: headers)
        } else if let placement = environment.playbackTimeline.place(key, offset: range.offset) {
            let deadline = placement.deadline - PlaybackTimeline.lead
            let urgency: FetchUrgency = deadline <= .now || isJump(from: placement.previous) ? .start : .buffering
            made = FetchOwnership(urgency: urgency, escalation: urgency == .buffering ? deadline : nil, session: session, headers: headers)
        } else {
            made = FetchOwnership(urgency: .ahead, session: session, headers: headers)
        }
        ownership = made
        return made
    }

    /// A player playing on asks for the segment after one it has or is getting: when nothing of
    /// the previous segment is cached or in flight, it jumped (a seek), and waits as at a start.
    private func isJump(from previous: PlaybackTimeline.Segment?) -> Bool {
        guard let previous, let wanted = previous.range ?? ByteRange(offset: 0, length: 1) else { return false }
        return environment.store.plan(key: previous.key, range: wanted).pieces.allSatisfy { $0.state == .missing }
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
        followedEscalation?.cancel()
        if let startsPlaybackAt { environment.playbackTimeline.playbackStarted(key, offset: startsPlaybackAt) }
        if let ownership { environment.upstream.scheduler.ownerLeft(ownership) }
    }
}
