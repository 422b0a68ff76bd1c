/// A media segment and everything in force for it.
public struct HLSSegment: Hashable, Sendable {
    /// The URI line, variables substituted, not resolved (``HLSBaseURL/resolve(_:)`` resolves it).
    public var uri: String
    /// EXTINF duration in seconds, as written.
    public var duration: HLSDecimal
    /// EXTINF title, or nil when empty.
    public var title: String?
    /// EXT-X-BYTERANGE with its implicit offset resolved, or nil for the whole resource.
    public var byteRange: HLSByteRange?
    /// EXT-X-DISCONTINUITY before this segment.
    public var discontinuity: Bool
    /// Every key in force, in playlist order (several with distinct KEYFORMATs); empty when
    /// the segment is not encrypted.
    public var keys: [HLSKey]
    /// The EXT-X-MAP in force, or nil.
    public var map: HLSMap?
    /// EXT-X-PROGRAM-DATE-TIME of this segment as written, or nil when the tag is not on it.
    public var programDateTime: String?
    /// EXT-X-GAP: the segment is missing and must not be fetched.
    public var gap: Bool
    /// EXT-X-BITRATE in force (not applied to byte-range segments), in bit/s.
    public var bitrate: UInt64?
    /// The media sequence number, or nil when it would exceed 2^64-1.
    public var sequenceNumber: UInt64?
}
