/// An immutable table of the tokenizer's records (elements or attributes), holding the memory
/// the tokenizer wrote them into: handed over without a copy, which on a long SegmentTimeline
/// was as many bytes again as the tables themselves, read and written once more per parse.
///
/// `@unchecked Sendable`: the memory is written only before the table is made, and freed only
/// with its storage.
struct RecordTable<Record: BitwiseCopyable & Sendable>: RandomAccessCollection, @unchecked Sendable {
    /// Owns the memory.
    final class Storage: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<Record>
        let count: Int

        init(pointer: UnsafeMutablePointer<Record>, count: Int) {
            self.pointer = pointer
            self.count = count
        }

        deinit { pointer.deallocate() }
    }

    private let storage: Storage
    /// The storage's memory and count, copied here so that reading a record does not touch
    /// (and retain) the storage object: `storage` only keeps the memory alive.
    private let base: UnsafePointer<Record>
    let count: Int

    init(storage: Storage) {
        self.storage = storage
        base = UnsafePointer(storage.pointer)
        count = storage.count
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    /// The record at `index`, which must be in the table (checked, as an array's subscript is).
    @inline(__always)
    subscript(index: Int) -> Record {
        precondition(index >= 0 && index < count, "RecordTable index out of range")
        return base[index]
    }

    /// The records in place, for a loop over many of them that holds the table (or the
    /// document that holds it) for as long as it reads them: no retain of the storage per call,
    /// as ``withUnsafeBufferPointer(_:)`` makes.
    var unsafeRecords: UnsafeBufferPointer<Record> { UnsafeBufferPointer(start: base, count: count) }

    func withUnsafeBufferPointer<Result>(_ body: (UnsafeBufferPointer<Record>) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(storage) {
            try body(UnsafeBufferPointer(start: base, count: count))
        }
    }
}
