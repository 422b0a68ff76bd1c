import CacheProxyParsing
import Synchronization

/// Who a fetch is for: how urgently its bytes are wanted (``FetchUrgency``), whether the client
/// that started it is still there (a fetch whose client left is orphaned: it goes on only while
/// nothing more urgent needs the link and little is left to fetch, see
/// ``CacheProxyConfiguration/orphanFetchLimit``), the playback session whose traffic it is,
/// if any, and the header fields its origin requests carry (``OriginHeaderFields``: a
/// session's, a prefetch item's, a player's forwarded fields; the app's per-origin fields are
/// added by ``Upstream``).
///
/// Changes go through ``LinkScheduler`` (``LinkScheduler/ownerLeft(_:)``,
/// ``LinkScheduler/raise(key:range:to:)``), which lets the fetches it paused know.
final class FetchOwnership: Sendable {
    private let gone = Atomic<Bool>(false)
    /// A player waits for the fetch's bytes too (it raised it): the fetch is not orphaned when
    /// its own client leaves.
    private let followed = Atomic<Bool>(false)
    /// The most urgent priority of the prefetches and downloads that wait for the fetch's bytes
    /// (``idlePriority`` while none does). Once its own client left and no player follows it,
    /// the fetch is theirs: as urgent as they are, and preemptible as they are, never more
    /// (a player's segment that escalated to a start stays no start once the player swiped away).
    private let backgroundFollowers = Atomic<Int>(FetchOwnership.idlePriority)
    private let level: Atomic<Int>
    /// The session the fetched bytes are counted for.
    let session: SessionTraffic?
    /// The fields asked for this fetch's origin requests.
    let headers: OriginHeaderFields

    /// Whether no client's response started the fetch (a prefetch, a session's buffering, a
    /// download): it is cut rather than paused while a player waits to start, since a paused
    /// transfer keeps receiving until its socket's buffer is full. It is cut even when a client
    /// follows it: that client fetches the rest itself, at its own turn, and the client that
    /// followed it is often gone (a player that swiped away from the video whose next segment a
    /// prefetch was fetching), though the fetch keeps the urgency it raised.
    var isPreemptible: Bool {
        ownPreemptible || (gone.load(ordering: .relaxed) && !followed.load(ordering: .relaxed))
    }
    private let ownPreemptible: Bool
    private let preempted = Atomic<Bool>(false)

    /// When the fetch becomes a ``FetchUrgency/start``: a playing player's next segment, at the
    /// moment its buffer is about to run out (``PlaybackTimeline``). ``LinkScheduler`` raises it.
    let escalation: ContinuousClock.Instant?

    /// - Parameters:
    ///   - rank: the order among fetches of the same urgency, lower first (a prefetch job's place
    ///     in the app's list: the next video's head before the one after it).
    ///   - escalation: when the fetch becomes a start (see ``escalation``).
    init(
        urgency: FetchUrgency, rank: Int = 0, escalation: ContinuousClock.Instant? = nil, session: SessionTraffic? = nil,
        headers: OriginHeaderFields = OriginHeaderFields(), preemptible: Bool = false
    ) {
        ownPreemptible = preemptible
        level = Atomic(Self.priority(urgency, rank: rank))
        self.escalation = escalation
        self.session = session
        self.headers = headers
    }

    /// Ranks told apart within one urgency; higher ranks share the last.
    private static let ranks = 64

    private static func priority(_ urgency: FetchUrgency, rank: Int) -> Int {
        urgency.rawValue * ranks + min(max(rank, 0), ranks - 1)
    }

    /// The urgency of a priority from ``priority``.
    static func urgency(ofPriority priority: Int) -> FetchUrgency {
        FetchUrgency(rawValue: priority / ranks) ?? .orphaned
    }

    /// The priority of no transfer at all: below every orphan.
    static let idlePriority = priority(.orphaned, rank: ranks)

    var isOwnerGone: Bool { gone.load(ordering: .relaxed) }

    /// Whether a fetch of this ownership was cut for a player's start (its caller fetches the
    /// gap again at its next turn, without counting a failure).
    var wasPreempted: Bool { preempted.load(ordering: .relaxed) }

    func notePreempted() {
        preempted.store(true, ordering: .relaxed)
    }

    /// How urgent the fetch is now: ``FetchUrgency/orphaned`` once its client left and nobody
    /// follows it.
    var urgency: FetchUrgency { Self.urgency(ofPriority: priority) }

    /// The urgency and the rank within it, as one number: lower goes first.
    var priority: Int {
        if gone.load(ordering: .relaxed), !followed.load(ordering: .relaxed) {
            return min(backgroundFollowers.load(ordering: .relaxed), Self.priority(.orphaned, rank: 0))
        }
        return level.load(ordering: .relaxed)
    }

    func ownerLeft() {
        gone.store(true, ordering: .relaxed)
    }

    /// A player follows the fetch: it is at least that urgent from now on. Returns whether
    /// anything changed.
    func raise(to urgency: FetchUrgency) -> Bool {
        let wasFollowed = followed.exchange(true, ordering: .relaxed)
        return lower(to: Self.priority(urgency, rank: 0)) || !wasFollowed
    }

    /// A prefetch or a download at `urgency` and `rank` follows the fetch: it is at least that
    /// urgent while its own client is there, and exactly that urgent once it left (see
    /// ``backgroundFollowers``). Returns whether anything changed.
    func raiseInBackground(to urgency: FetchUrgency, rank: Int) -> Bool {
        let desired = Self.priority(urgency, rank: rank)
        var current = backgroundFollowers.load(ordering: .relaxed)
        var changed = false
        while desired < current {
            let (exchanged, original) = backgroundFollowers.compareExchange(expected: current, desired: desired, ordering: .relaxed)
            if exchanged { changed = true; break }
            current = original
        }
        return lower(to: desired) || changed
    }

    /// Its ``escalation`` came: the fetch is a start from now on. Returns whether anything changed.
    func escalate() -> Bool {
        lower(to: Self.priority(.start, rank: 0))
    }

    private func lower(to desired: Int) -> Bool {
        var current = level.load(ordering: .relaxed)
        while desired < current {
            let (exchanged, original) = level.compareExchange(expected: current, desired: desired, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }
}
