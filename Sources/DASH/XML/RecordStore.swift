/// An append-only table of plain records in memory the tokenizer owns, for its element and
/// attribute tables: an append checks the capacity and nothing else (no uniqueness check or
/// reference counting, as `Array` has on each mutation), and records are updated in place.
/// ``array()`` copies the table out once, at the end of the parse.
struct RecordStore<Record: BitwiseCopyable>: ~Copyable {
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
        let larger = UnsafeMutablePointer<Record>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
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

    func array() -> [Record] { Array(UnsafeBufferPointer(start: base, count: count)) }
}
