/// A growable buffer of plain records that the parser appends to once per line, segment or
/// attribute. `Array.append` checks that its buffer is uniquely referenced (a runtime call) and
/// writes the array back into the parser on every append; this checks only the capacity. When
/// the parse is done the memory is handed to a ``RecordArray`` as it is, without a copy.
struct RecordBuffer<Element: BitwiseCopyable>: ~Copyable {
    private var pointer: UnsafeMutablePointer<Element>
    private var capacity: Int
    private(set) var count = 0
    /// False once ``finish()`` handed the memory to a ``RecordArray``.
    private var ownsMemory = true

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        pointer = .allocate(capacity: self.capacity)
    }

    deinit {
        if ownsMemory { pointer.deallocate() }
    }

    var isEmpty: Bool { count == 0 }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow(to: capacity &* 2) }
        (pointer + count).initialize(to: element)
        count &+= 1
    }

    /// Drops the records from `newCount` on (plain values: there is nothing to deinitialize).
    @inline(__always)
    mutating func truncate(to newCount: Int) {
        precondition(newCount >= 0 && newCount <= count, "RecordBuffer truncated past its end")
        count = newCount
    }

    /// Makes room for at least `minimumCapacity` records.
    mutating func reserve(_ minimumCapacity: Int) {
        if minimumCapacity > capacity { grow(to: minimumCapacity) }
    }

    @inline(never)
    private mutating func grow(to newCapacity: Int) {
        let newPointer = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        newPointer.initialize(from: pointer, count: count)
        pointer.deallocate()
        pointer = newPointer
        capacity = newCapacity
    }

    /// The record at `index`, which must be below `count`.
    @inline(__always)
    subscript(index: Int) -> Element {
        get {
            precondition(index >= 0 && index < count, "RecordBuffer index out of range")
            return pointer[index]
        }
        set {
            precondition(index >= 0 && index < count, "RecordBuffer index out of range")
            pointer[index] = newValue
        }
    }

    var last: Element? { count > 0 ? pointer[count - 1] : nil }

    /// The records, frozen. The memory moves to the array unless nearly all of it is unused
    /// (reserved for a shape of playlist this one is not), in which case the few records are
    /// copied into a block of their size.
    consuming func finish() -> RecordArray<Element> {
        if capacity > 8 * count + 256 { grow(to: count) }
        ownsMemory = false
        return RecordArray(storage: RecordArray<Element>.Storage(pointer: pointer, count: count))
    }
}
