/// EXT-X-MAP: the attributes and the resolved byte range.
struct MapRecord: Sendable {
    var tag: TagRecord
    var byteRangeLength: UInt64
    var byteRangeOffset: UInt64
    var hasByteRange: Bool
}
