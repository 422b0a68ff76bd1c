import Synchronization

/// Who a fetch is for: how urgently its bytes are wanted (``FetchUrgency``), whether the client
/// that started it is still there (a fetch whose client left is orphaned: it goes on only while
/// nothing more urgent needs the link and little is left to fetch, see
/// ``CacheProxyConfiguration/orphanFetchLimit``), and the playback session whose traffic it is,
/// if any.
///
/// Changes go through ``LinkScheduler`` (``LinkScheduler/ownerLeft(_:)``,
/// ``LinkScheduler/raise(key:range:to:)``), which lets the fetches it paused know.
final class FetchOwnership: Sendable {
    private let gone = Atomic<Bool>(false)
    /// Someone else waits for the fetch's bytes too (a follower raised it): it is not orphaned
    /// when its own client leaves.
    private let followed = Atomic<Bool>(false)
    private let level: Atomic<Int>
    /// The session the fetched bytes are counted for.
    let session: SessionTraffic?

    init(urgency: FetchUrgency, session: SessionTraffic? = nil) {
        level = Atomic(urgency.rawValue)
        self.session = session
    }

    var isOwnerGone: Bool { gone.load(ordering: .relaxed) }

    /// How urgent the fetch is now: ``FetchUrgency/orphaned`` once its client left and nobody
    /// follows it.
    var urgency: FetchUrgency {
        if gone.load(ordering: .relaxed), !followed.load(ordering: .relaxed) { return .orphaned }
        return FetchUrgency(rawValue: level.load(ordering: .relaxed)) ?? .orphaned
    }

    func ownerLeft() {
        gone.store(true, ordering: .relaxed)
    }

    /// A more urgent client follows the fetch: it is at least that urgent from now on. Returns
    /// whether anything changed.
    func raise(to urgency: FetchUrgency) -> Bool {
        let wasFollowed = followed.exchange(true, ordering: .relaxed)
        var current = level.load(ordering: .relaxed)
        while urgency.rawValue < current {
            let (exchanged, original) = level.compareExchange(expected: current, desired: urgency.rawValue, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return !wasFollowed
    }
}
