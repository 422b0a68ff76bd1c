/// An append-only table of plain records in memory the tokenizer owns, for its element and
/// attribute tables: an append checks the capacity and nothing else (no uniqueness check or
/// reference counting, as `Array` has on each mutation), and records are updated in place.
/// ``table()`` hands the memory to the document at the end of the parse.
struct RecordStore<Record: BitwiseCopyable & Sendable>: ~Copyable {
    private var base: UnsafeMutablePointer<Record>
    private var capacity: Int
    private(set) var count = 0

    init(reserving initial: Int) {
        capacity = max(initial, 16)
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    @inline(__always)
    mutating func append(_ record: Record) {
        if count == capacity { reallocate() }
        (base + count).initialize(to: record)
        count &+= 1
    }

    private mutating func reallocate() {
        resize(to: capacity * 2)
    }

    private mutating func resize(to newCapacity: Int) {
        let resized = UnsafeMutablePointer<Record>.allocate(capacity: newCapacity)
        resized.moveInitialize(from: base, count: count)
        base.deallocate()
        base = resized
        capacity = newCapacity
    }

    /// The record at `index`, which must be below ``count`` (checked in debug builds).
    @inline(__always)
    subscript(index: Int) -> Record {
        get {
            assert(index >= 0 && index < count)
            return base[index]
        }
        nonmutating _modify {
            assert(index >= 0 && index < count)
            yield &base[index]
        }
    }

    /// The records, frozen, in this store's memory; unless nearly all of it is unused (room
    /// reserved for a denser document than this one), then the few records move to a block of
    /// their size first.
    consuming func table() -> RecordTable<Record> {
        if capacity > 8 * count + 256 { resize(to: max(count, 1)) }
        let storage = RecordTable<Record>.Storage(pointer: base, count: count)
        discard self
        return RecordTable(storage: storage)
    }
}
