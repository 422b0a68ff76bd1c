import Synchronization

/// A counter that changes whenever any entry's file may have changed: an entry created,
/// replaced or removed, or its file opened again. Readable without the store's lock.
final class EntriesRevision: Sendable {
    private let value = Atomic<UInt64>(0)

    var current: UInt64 { value.load(ordering: .acquiring) }

    func advance() {
        value.wrappingAdd(1, ordering: .releasing)
    }
}
