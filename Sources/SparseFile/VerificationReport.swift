/// What ``SparseFile/verify(progress:)`` found.
public struct VerificationReport: Sendable, Hashable {
    /// Both header slots: which decodes, which is in use.
    public var slots: [HeaderSlotStatus]
    /// How many data bytes were hashed.
    public var checkedBytes: UInt64
    /// Original ranges whose stored bytes fail their checksum or are missing from the file,
    /// sorted and merged. These are never served.
    public var corruptRanges: [ByteRange]

    /// Whether no header slot is damaged (a new file's empty slot 1 is not) and every cached
    /// byte verifies.
    public var isSound: Bool { corruptRanges.isEmpty && !slots.contains(where: \.isDamaged) }
}

/// What ``SparseFile/repair()`` changed.
public struct RepairReport: Sendable, Hashable {
    /// The verification that guided the repair.
    public var verification: VerificationReport
    /// The original ranges dropped from the map because their bytes were corrupt, including a
    /// damaged partial last block that opening the file for writing dropped.
    public var droppedRanges: [ByteRange]
    /// Whether a new header was committed (to replace a bad slot or record the drops).
    public var rewroteHeader: Bool

    /// Whether the repair changed the file.
    public var changedFile: Bool { rewroteHeader || !droppedRanges.isEmpty }
}

/// What ``SparseFile/compact()`` did.
public struct CompactionReport: Sendable, Hashable {
    public var fileSizeBefore: UInt64
    public var fileSizeAfter: UInt64
    public var extentsBefore: Int
    public var extentsAfter: Int
    /// Original ranges left out because their bytes failed verification while being copied.
    public var droppedRanges: [ByteRange]
}
