import Synchronization

/// A fetch's order among fetches of the same urgency (lower first), which its owner may change
/// while the fetch waits or transfers: a prefetch job's place in the app's list moves up at each
/// swipe. A fetch made before the swipe, say a gap claimed again after a cut, must go by the new
/// place, or it ties with the job now behind it and both heads share the link.
///
/// After changing it, tell ``LinkScheduler/ranksChanged()``, which looks at the transfers again.
final class FetchRank: Sendable {
    private let place: Atomic<Int>

    init(_ place: Int = 0) {
        self.place = Atomic(place)
    }

    var value: Int { place.load(ordering: .relaxed) }

    func set(_ newPlace: Int) {
        place.store(newPlace, ordering: .relaxed)
    }

    private let withdrawn = Atomic<Bool>(false)

    /// Whether the owner left the list: its fetches that have not begun never start
    /// (``FetchOwnership/isWithdrawn``).
    var isWithdrawn: Bool { withdrawn.load(ordering: .relaxed) }

    /// The owner left the list (a prefetch job the app dropped). Tell
    /// ``LinkScheduler/ranksChanged()`` after it, so that its fetches waiting for a turn look.
    func withdraw() {
        withdrawn.store(true, ordering: .relaxed)
    }
}
