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
    /// RESOLUTION, or nil when absent or malformed.
    public var resolution: HLSResolution?
    /// True for EXT-X-I-FRAME-STREAM-INF.
    public var isIFrameOnly: Bool

    /// A summary; a playlist gives these in ``HLSPlaylist/variantSummaries``.
    public init(index: Int, bandwidth: UInt64?, averageBandwidth: UInt64? = nil, resolution: HLSResolution? = nil,
                isIFrameOnly: Bool = false) {
        self.index = index
        self.bandwidth = bandwidth
        self.averageBandwidth = averageBandwidth
        self.resolution = resolution
        self.isIFrameOnly = isIFrameOnly
    }
}
