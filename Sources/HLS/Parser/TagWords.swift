/// The first bytes of the tags that come with every segment, as the 64-bit words an unaligned
/// little-endian load of them gives, so that the parser recognizes them with one or three word
/// comparisons before any table lookup. (`ByteScanningTests` checks each against its text.)
enum TagWords {
    /// `#EXTINF:`
    static let extinf: UInt64 = 0x3A46_4E49_5458_4523
    /// `#EXT-X-B`, `YTERANGE`: `#EXT-X-BYTERANGE` is 16 bytes.
    static let byteRange: (UInt64, UInt64) = (0x422D_582D_5458_4523, 0x4547_4E41_5245_5459)
    /// `#EXT-X-P`, `ROGRAM-D`, `ATE-TIME`: `#EXT-X-PROGRAM-DATE-TIME` is 24 bytes.
    static let programDateTime: (UInt64, UInt64, UInt64) = (0x502D_582D_5458_4523, 0x442D_4D41_5247_4F52,
                                                             0x454D_4954_2D45_5441)
    /// `ART:`, after `#EXT-X-P`: `#EXT-X-PART:` is 12 bytes.
    static let part: UInt32 = 0x3A54_5241
    /// `#EXT`, the start of every tag, as a 32-bit word.
    static let ext: UInt32 = 0x5458_4523
}
