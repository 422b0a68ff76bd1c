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
