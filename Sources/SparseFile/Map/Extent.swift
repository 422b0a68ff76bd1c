/// One contiguous run of cached bytes: `length` bytes of the original resource starting at
/// `original`, stored at data offset `data` of the file.
struct Extent: Hashable, Sendable {
    var original: UInt64
    var length: UInt64
    var data: UInt64

    var originalEnd: UInt64 { original + length }
    var dataEnd: UInt64 { data + length }
    var originalRange: ByteRange { ByteRange(uncheckedFrom: original, to: originalEnd) }

    /// The data offset of original byte `position`, which must lie inside the extent.
    func dataOffset(of position: UInt64) -> UInt64 { data + (position - original) }
}
