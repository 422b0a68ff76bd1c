/// EXT-X-DATERANGE and the index of the segment it precedes.
struct DateRangeRecord: Sendable {
    var tag: TagRecord
    var segment: Int32
}
