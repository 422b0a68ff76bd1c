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
    /// How many players wait for the fetch's bytes too (they raised it): while one does, the
    /// fetch is not orphaned when its own client leaves, and is at least as urgent as the most
    /// urgent of them (``playerLevel``). A player that leaves stops counting: a player's segment
    /// that another player had raised to a start is no start once both swiped away.
    private let playerFollowers = Atomic<Int>(0)
    private let playerLevel = Atomic<Int>(FetchOwnership.idlePriority)
    /// The fetches of others this one's client follows, so that they stop counting it when it
    /// leaves.
    private let following = Mutex<[ObjectIdentifier: FetchOwnership]>([:])
    /// The most urgent priority of the prefetches and downloads that wait for the fetch's bytes
    /// (``idlePriority`` while none does). Once its own client left and no player follows it,
    /// the fetch is theirs: as urgent as they are, and preemptible as they are, never more
    /// (a player's segment that escalated to a start stays no start once the player swiped away).
    private let backgroundFollowers = Atomic<Int>(FetchOwnership.idlePriority)
    /// The urgency's priority at rank 0 (``priority(_:rank:)``); the rank is added when read.
    private let level: Atomic<Int>
    private let rank: FetchRank
    /// The session the fetched bytes are counted for.
    let session: SessionTraffic?
    /// The fields asked for this fetch's origin requests.
    let headers: OriginHeaderFields

    /// Whether no client's response started the fetch (a prefetch, a session's buffering, a
    /// download): it is cut rather than paused while a player waits to start, since a paused
    /// transfer keeps receiving until its socket's buffer is full. It is cut even when a client
    /// follows it: that client fetches the rest itself, at its own turn. A fetch a player's
    /// response started becomes preemptible once that player left and no player follows it.
    var isPreemptible: Bool {
        ownPreemptible || noPlayerWaits
    }
    private let ownPreemptible: Bool
    private let preempted = Atomic<Bool>(false)

    /// Whether no client's response started the fetch (a prefetch, a session's buffering, a
    /// download): it waits behind the places prefetch jobs hold (``LinkScheduler/holdPlace(_:)``).
    var isBackground: Bool { ownPreemptible }

    /// Whether the fetch is of a resource its owner has not begun, and its owner left the list
    /// (``FetchRank/withdraw()``): it gives up its wait for a turn instead of asking the origin.
    /// A resource begun (bytes fetched, then a cut) is finished: the video dropped from the list
    /// is the one swiped to next as often as not.
    var isWithdrawn: Bool { withdrawable && rank.isWithdrawn }
    private let withdrawable: Bool

    /// When the fetch becomes a ``FetchUrgency/start``: a playing player's next segment, at the
    /// moment its buffer is about to run out (``PlaybackTimeline``). ``LinkScheduler`` raises it.
    let escalation: ContinuousClock.Instant?

    /// - Parameters:
    ///   - rank: the order among fetches of the same urgency, lower first (a prefetch job's place
    ///     in the app's list: the next video's head before the one after it), read at each look.
    ///   - escalation: when the fetch becomes a start (see ``escalation``).
    ///   - withdrawable: whether the fetch begins a resource (see ``isWithdrawn``).
    init(
        urgency: FetchUrgency, rank: FetchRank = FetchRank(), escalation: ContinuousClock.Instant? = nil, session: SessionTraffic? = nil,
        headers: OriginHeaderFields = OriginHeaderFields(), preemptible: Bool = false, withdrawable: Bool = false
    ) {
        ownPreemptible = preemptible
        self.withdrawable = withdrawable
        level = Atomic(Self.priority(urgency, rank: 0))
        self.rank = rank
        self.escalation = escalation
        self.session = session
        self.headers = headers
    }

    /// Ranks told apart within one urgency; higher ranks share the last.
    private static let ranks = 64

    private static func priority(_ urgency: FetchUrgency, rank: Int) -> Int {
        urgency.rawValue * ranks + clamped(rank)
    }

    private static func clamped(_ rank: Int) -> Int { min(max(rank, 0), ranks - 1) }

    /// The urgency of a priority from ``priority``.
    static func urgency(ofPriority priority: Int) -> FetchUrgency {
        FetchUrgency(rawValue: priority / ranks) ?? .orphaned
    }

    /// The priority of no transfer at all: below every orphan.
    static let idlePriority = priority(.orphaned, rank: ranks)

    var isOwnerGone: Bool { gone.load(ordering: .relaxed) }

    /// Whether no player waits for the fetch's bytes: its client left and no player follows it.
    var noPlayerWaits: Bool { gone.load(ordering: .relaxed) && playerFollowers.load(ordering: .relaxed) == 0 }

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
        let followed = playerFollowers.load(ordering: .relaxed) > 0
        let background = backgroundFollowers.load(ordering: .relaxed)
        if gone.load(ordering: .relaxed) {
            return followed ? min(playerLevel.load(ordering: .relaxed), background) : min(background, Self.priority(.orphaned, rank: 0))
        }
        let own = min(level.load(ordering: .relaxed) + Self.clamped(rank.value), background)
        return followed ? min(own, playerLevel.load(ordering: .relaxed)) : own
    }

    func ownerLeft() {
        gone.store(true, ordering: .relaxed)
    }

    /// The client of `follower` waits for this fetch's bytes at `urgency`: this fetch is at
    /// least that urgent until that client leaves (``LinkScheduler/ownerLeft(_:)``); nil, a
    /// client that is never told apart (a shared playlist fetch's), for good. Returns whether
    /// anything changed.
    func raise(to urgency: FetchUrgency, by follower: FetchOwnership?) -> Bool {
        // A client that already left would never stop counting.
        if let follower, follower.isOwnerGone { return false }
        let isNew = follower.map { $0.startFollowing(self) } ?? true
        if isNew { playerFollowers.add(1, ordering: .relaxed) }
        return Self.lower(playerLevel, to: Self.priority(urgency, rank: 0)) || isNew
    }

    private func startFollowing(_ other: FetchOwnership) -> Bool {
        following.withLock { following in
            guard following[ObjectIdentifier(other)] == nil else { return false }
            following[ObjectIdentifier(other)] = other
            return true
        }
    }

    /// This fetch's client left: the fetches it followed stop counting it.
    func stopFollowing() {
        let followed = following.withLock { following in
            defer { following.removeAll() }
            return Array(following.values)
        }
        for other in followed where other.playerFollowers.subtract(1, ordering: .relaxed).newValue == 0 {
            other.playerLevel.store(Self.idlePriority, ordering: .relaxed)
        }
    }

    /// A prefetch or a download at `urgency` and `rank` follows the fetch: it is at least that
    /// urgent while its own client is there, and exactly that urgent once it left (see
    /// ``backgroundFollowers``). Returns whether anything changed.
    func raiseInBackground(to urgency: FetchUrgency, rank: Int) -> Bool {
        Self.lower(backgroundFollowers, to: Self.priority(urgency, rank: rank))
    }

    /// Its ``escalation`` came: the fetch is a start from now on. Returns whether anything changed.
    func escalate() -> Bool {
        Self.lower(level, to: Self.priority(.start, rank: 0))
    }

    private static func lower(_ priority: borrowing Atomic<Int>, to desired: Int) -> Bool {
        var current = priority.load(ordering: .relaxed)
        while desired < current {
            let (exchanged, original) = priority.compareExchange(expected: current, desired: desired, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }
}
