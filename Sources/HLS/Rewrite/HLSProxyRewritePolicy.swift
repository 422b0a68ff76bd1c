/// The policies a caching proxy needs, in one value: route URIs through the proxy, keep only
/// the first segments on it (head-only caching), drop or lock variants, override BANDWIDTH.
public struct HLSProxyRewritePolicy: HLSRewritePolicy, Sendable {
    /// Where proxied URIs point.
    public var endpoint: HLSProxyEndpoint
    /// When set, segments from this index on (and their parts and hints) keep their absolute
    /// origin URI; keys, maps and playlists still go through the proxy.
    public var headSegmentCount: Int?
    /// When set, variants whose BANDWIDTH is above it are dropped. I-frame variants too.
    public var maximumBandwidth: UInt64?
    /// When set, only variants it returns true for are kept (lock to one quality, flatten a
    /// multivariant playlist to one variant, ...).
    public var keepVariant: (@Sendable (HLSVariantSummary) -> Bool)?
    /// When set, a non-nil result replaces the variant's BANDWIDTH.
    public var bandwidthOverride: (@Sendable (HLSVariantSummary) -> UInt64?)?

    /// A policy routing every URI through `endpoint`, with the optional rules below.
    public init(endpoint: HLSProxyEndpoint, headSegmentCount: Int? = nil, maximumBandwidth: UInt64? = nil,
                keepVariant: (@Sendable (HLSVariantSummary) -> Bool)? = nil,
                bandwidthOverride: (@Sendable (HLSVariantSummary) -> UInt64?)? = nil) {
        self.endpoint = endpoint
        self.headSegmentCount = headSegmentCount
        self.maximumBandwidth = maximumBandwidth
        self.keepVariant = keepVariant
        self.bandwidthOverride = bandwidthOverride
    }

    /// `.proxy(endpoint)`, or `.origin` for segments (and their parts) past the head.
    public func route(for reference: HLSURIReference) -> HLSURIRoute {
        if let headSegmentCount, let segment = reference.segmentIndex, segment >= headSegmentCount {
            return .origin
        }
        return .proxy(endpoint)
    }

    /// Drops variants above the maximum bandwidth or rejected by `keepVariant`, then applies
    /// `bandwidthOverride`.
    public func decision(for variant: HLSVariantSummary) -> HLSVariantDecision {
        if let maximumBandwidth, let bandwidth = variant.bandwidth, bandwidth > maximumBandwidth {
            return .drop
        }
        if let keepVariant, !keepVariant(variant) {
            return .drop
        }
        if let bandwidth = bandwidthOverride?(variant) {
            return .keepWithBandwidth(bandwidth)
        }
        return .keep
    }
}
