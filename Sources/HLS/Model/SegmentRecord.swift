/// A media segment as offsets and parsed numbers; strings are decoded only when asked for.
/// Kept at 64 bytes: appending a larger record costs a `memcpy` call per segment.
struct SegmentRecord: Sendable {
    struct Flags: OptionSet, Sendable {
        var rawValue: UInt8
        static let discontinuity = Flags(rawValue: 1)
        static let gap = Flags(rawValue: 2)
        static let byteRange = Flags(rawValue: 4)
    }

    var uri: ByteSpan
    /// The EXTINF duration as written; empty when it was missing or malformed (read as 0).
    var duration: ByteSpan
    var title: ByteSpan
    var programDateTime: ByteSpan
    var byteRangeLength: UInt64
    var byteRangeOffset: UInt64
    /// Index into `PlaylistStorage.bitrates` of the EXT-X-BITRATE in force, or -1.
    var bitrate: Int32
    /// Index into the key sets, or -1 when no key is in force.
    var keySet: Int32
    /// Index into the maps, or -1.
    var map: Int32
    var flags: Flags
}

/// EXT-X-MAP: the attributes and the resolved byte range.
struct MapRecord: Sendable {
    var tag: TagRecord
    var byteRangeLength: UInt64
    var byteRangeOffset: UInt64
    var hasByteRange: Bool
}

/// EXT-X-PART: the attributes, the resolved byte range and the parent segment's index (equal to
/// the segment count for the parts of the segment still being produced).
struct PartRecord: Sendable {
    var tag: TagRecord
    var segment: Int32
    var byteRangeLength: UInt64
    var byteRangeOffset: UInt64
    var hasByteRange: Bool
}

/// EXT-X-DATERANGE and the index of the segment it precedes.
struct DateRangeRecord: Sendable {
    var tag: TagRecord
    var segment: Int32
}

/// EXT-X-STREAM-INF with its URI line, or EXT-X-I-FRAME-STREAM-INF with its URI attribute.
struct VariantRecord: Sendable {
    var tag: TagRecord
    /// The URI line (STREAM-INF) or the URI attribute's content (I-FRAME-STREAM-INF).
    var uri: ByteSpan
    /// Index of the URI line, or -1 for an I-frame variant.
    var uriLine: Int32
    var bandwidth: UInt64?
    var averageBandwidth: UInt64?
    var isIFrame: Bool
}
