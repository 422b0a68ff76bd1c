import Synchronization

/// A count that concurrent tasks add to and a test reads.
final class Counter: Sendable {
    private let count = Atomic(0)

    func increment() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}
