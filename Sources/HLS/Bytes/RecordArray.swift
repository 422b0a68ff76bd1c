/// The records of a parsed playlist (lines, segments, attributes), in the memory the parser
/// wrote them to: a read-only collection that frees its block when the last playlist sharing
/// it goes away.
struct RecordArray<Element: BitwiseCopyable>: RandomAccessCollection {
    /// The block of records; immutable once made.
    final class Storage {
        let pointer: UnsafeMutablePointer<Element>
        let count: Int

        init(pointer: UnsafeMutablePointer<Element>, count: Int) {
            self.pointer = pointer
            self.count = count
        }

        deinit {
            pointer.deallocate()
        }
    }

    private let storage: Storage?

    /// No records.
    init() {
        storage = nil
    }

    init(storage: Storage) {
        self.storage = storage
    }

    var startIndex: Int { 0 }
    var endIndex: Int { storage?.count ?? 0 }

    @inline(__always)
    subscript(position: Int) -> Element {
        guard let storage, position >= 0, position < storage.count else {
            preconditionFailure("RecordArray index out of range")
        }
        return storage.pointer[position]
    }
}

// The block is never written after the parse, so sharing it between threads is safe.
extension RecordArray: @unchecked Sendable where Element: Sendable {}
