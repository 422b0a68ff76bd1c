/// A variant's numbers, read without decoding any string: what the rewriter gives a policy and
/// ``HLSPlaylist/variantSummaries`` lists. Use `index` with ``HLSPlaylist/variants`` or
/// ``HLSPlaylist/iFrameVariants`` for more.
public struct HLSVariantSummary: Hashable, Sendable {
    /// Index in ``HLSPlaylist/variants`` (or ``HLSPlaylist/iFrameVariants`` when `isIFrameOnly`).
    public var index: Int
    /// BANDWIDTH, in bits per second.
    public var bandwidth: UInt64?
    /// AVERAGE-BANDWIDTH, in bits per second.
    public var averageBandwidth: UInt64?
    /// True for EXT-X-I-FRAME-STREAM-INF.
    public var isIFrameOnly: Bool
}
