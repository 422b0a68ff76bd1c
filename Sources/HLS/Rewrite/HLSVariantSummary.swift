/// What the rewriter knows about a variant when it asks the policy about it: cheap numbers
/// only. Use `index` with ``HLSPlaylist/variants`` or ``HLSPlaylist/iFrameVariants`` for more.
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
