/// Decides, during ``HLSPlaylist/rewritten(base:policy:)``, where each URI points and which
/// variants stay. The rewriter calls it once per URI and once per variant, in playlist order.
public protocol HLSRewritePolicy {
    /// Where `reference` should point in the rewritten playlist.
    func route(for reference: HLSURIReference) -> HLSURIRoute
    /// Whether a variant stays, and with which BANDWIDTH. The default keeps every variant as is.
    func decision(for variant: HLSVariantSummary) -> HLSVariantDecision
}

extension HLSRewritePolicy {
    /// Keeps every variant as it is.
    public func decision(for variant: HLSVariantSummary) -> HLSVariantDecision { .keep }
}

/// A URI the rewriter is about to rewrite: what holds it and where it sits in the model.
public struct HLSURIReference: Hashable, Sendable {
    /// The tag (or line) a URI stands in.
    public enum Role: Hashable, Sendable {
        case segment, part, preloadHint, key, map
        case variant, iFrameVariant, rendition, sessionKey, sessionData, renditionReport, contentSteering
    }

    /// What holds the URI.
    public var role: Role
    /// Index in the list of its role (``HLSPlaylist/segments``, ``HLSPlaylist/parts``, the
    /// tag's position among tags of its kind, ...).
    public var index: Int
    /// For segments, parts and preload hints: the index of the segment they belong to (for a
    /// preload hint, the segment being produced, which equals the segment count).
    public var segmentIndex: Int?

    /// A reference to the URI of the `index`th holder of `role`.
    public init(role: Role, index: Int, segmentIndex: Int? = nil) {
        self.role = role
        self.index = index
        self.segmentIndex = segmentIndex
    }
}

/// Where a rewritten URI points.
public enum HLSURIRoute: Sendable {
    /// Keep the bytes as written.
    case unchanged
    /// The absolute URI on the origin (resolved against the base URL).
    case origin
    /// Through the proxy: `<endpoint>?url=<percent-encoded absolute URI>`.
    case proxy(HLSProxyEndpoint)
    /// A URI computed from the absolute one. The rewriter escapes what could break the line or
    /// the attribute (control characters, quotes, white space, non-ASCII), so any string is safe.
    case custom(@Sendable (String) -> String)
}

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

/// What happens to a variant.
public enum HLSVariantDecision: Hashable, Sendable {
    case keep
    /// Remove the tag and its URI line.
    case drop
    /// Keep it with this BANDWIDTH value (the attribute is added when missing).
    case keepWithBandwidth(UInt64)
}
