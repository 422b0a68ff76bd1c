/// EXT-X-PART: a partial segment of low-latency HLS.
public struct HLSPart: Hashable, Sendable {
    /// The URI, variables substituted, not resolved.
    public var uri: String
    /// DURATION in seconds, as written.
    public var duration: HLSDecimal
    /// BYTERANGE with its implicit offset resolved, or nil.
    public var byteRange: HLSByteRange?
    /// INDEPENDENT=YES: the part starts with an independent frame.
    public var independent: Bool
    /// GAP=YES: the part is not available.
    public var gap: Bool
    /// Index of the parent segment in ``HLSPlaylist/segments``; equal to the segment count for
    /// the parts of the segment still being produced.
    public var segmentIndex: Int
    /// Every attribute as written, including ones this type has no property for.
    public var attributes: [HLSAttribute]
}
