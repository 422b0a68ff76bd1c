/// The policies a caching proxy needs, in one value: route URIs through the proxy, keep only
/// the first segments on it (head-only caching), drop or lock variants, override BANDWIDTH.
///
/// To serve one quality only, pick it with ``HLSPlaylist/variant(for:maximumBandwidth:)`` and
/// ``lock(to:)`` the policy to it: the rewritten multivariant playlist then lists that variant
/// and the renditions it references, and nothing a player could switch to.
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
    /// When set, a non-nil result replaces the variant's BANDWIDTH (and AVERAGE-BANDWIDTH).
    public var bandwidthOverride: (@Sendable (HLSVariantSummary) -> UInt64?)?
    /// When set, the EXT-X-STREAM-INF variant at this index of ``HLSPlaylist/variants`` is the
    /// only one kept, whatever `maximumBandwidth` and `keepVariant` say (they still decide about
    /// I-frame variants). An index that names no variant leaves the lowest-bandwidth one, as
    /// every policy that would drop all variants does.
    public var lockedVariant: Int?
    /// When true, every EXT-X-I-FRAME-STREAM-INF variant is dropped.
    public var dropsIFrameVariants: Bool
    /// When true, EXT-X-MEDIA renditions that no kept variant references are dropped (see
    /// ``HLSRewritePolicy/dropsUnreferencedRenditions``).
    public var dropsUnreferencedRenditions: Bool
    /// When set, only the EXT-X-MEDIA renditions (by index in ``HLSPlaylist/renditions``) it
    /// returns true for may stay: a proxy serving from its cache drops those it cannot play.
    public var keepRendition: (@Sendable (Int) -> Bool)? = nil

    /// A policy routing every URI through `endpoint`, with the optional rules below.
    public init(endpoint: HLSProxyEndpoint, headSegmentCount: Int? = nil, maximumBandwidth: UInt64? = nil,
                keepVariant: (@Sendable (HLSVariantSummary) -> Bool)? = nil,
                bandwidthOverride: (@Sendable (HLSVariantSummary) -> UInt64?)? = nil,
                lockedVariant: Int? = nil, dropsIFrameVariants: Bool = false, dropsUnreferencedRenditions: Bool = false) {
        self.endpoint = endpoint
        self.headSegmentCount = headSegmentCount
        self.maximumBandwidth = maximumBandwidth
        self.keepVariant = keepVariant
        self.bandwidthOverride = bandwidthOverride
        self.lockedVariant = lockedVariant
        self.dropsIFrameVariants = dropsIFrameVariants
        self.dropsUnreferencedRenditions = dropsUnreferencedRenditions
    }

    /// Serves `variant` alone: locks to it, drops the I-frame variants and the renditions it
    /// does not reference.
    public mutating func lock(to variant: HLSVariantSummary) {
        lockedVariant = variant.index
        dropsIFrameVariants = true
        dropsUnreferencedRenditions = true
    }

    /// What ``keepRendition`` says; true without it.
    public func keepsRendition(at index: Int) -> Bool {
        keepRendition?(index) ?? true
    }

    /// `.proxy(endpoint)`, or `.origin` for segments (and their parts) past the head.
    public func route(for reference: HLSURIReference) -> HLSURIRoute {
        if let headSegmentCount, let segment = reference.segmentIndex, segment >= headSegmentCount {
            return .origin
        }
        return .proxy(endpoint)
    }

    /// Drops I-frame variants when asked to, variants other than the locked one, variants above
    /// the maximum bandwidth or rejected by `keepVariant`, then applies `bandwidthOverride`.
    public func decision(for variant: HLSVariantSummary) -> HLSVariantDecision {
        if variant.isIFrameOnly && dropsIFrameVariants {
            return .drop
        }
        if let lockedVariant, !variant.isIFrameOnly {
            if variant.index != lockedVariant { return .drop }
        } else {
            if let maximumBandwidth, let bandwidth = variant.bandwidth, bandwidth > maximumBandwidth {
                return .drop
            }
            if let keepVariant, !keepVariant(variant) {
                return .drop
            }
        }
        if let bandwidth = bandwidthOverride?(variant) {
            return .keepWithBandwidth(bandwidth)
        }
        return .keep
    }
}
