/// EXT-X-PART: the attributes, the resolved byte range and the parent segment's index (equal to
/// the segment count for the parts of the segment still being produced).
struct PartRecord: Sendable {
    var tag: TagRecord
    var segment: Int32
    var byteRangeLength: UInt64
    var byteRangeOffset: UInt64
    var hasByteRange: Bool
}
