public import CodedErrors

/// How ``DASHManifest/rewritten(manifestURL:policy:)`` serves an MPD through SparseCache's proxy:
/// where its URLs point, and which Representations stay.
///
/// Every URL a player requests (BaseURL, template, SegmentURL, Initialization, Location) must
/// reach the proxy in path form (see ``DASHProxyEndpoint``). A reference is left as written when,
/// resolved the way the player will resolve it (against the MPD's served URL and the rewritten
/// BaseURLs above it), it already maps back to the origin URL it had; otherwise it is replaced by
/// its absolute path-form URL. Served at its own path-form URL (the default), an MPD of relative
/// references (ffmpeg's) comes back unchanged.
public struct DASHProxyRewritePolicy: Sendable {
    /// Where URLs point.
    public var endpoint: DASHProxyEndpoint
    /// The URL the player fetches the rewritten MPD from, which relative references resolve
    /// against. Nil (the default) means the path form of the MPD's origin URL. Given another URL
    /// (`/proxy?url=...`), every relative reference at the top is made absolute.
    public var servedManifestURL: DASHAbsoluteURL?
    /// When set, Representations whose `@bandwidth` is above it are dropped.
    public var maximumBandwidth: UInt64?
    /// When set, only Representations it returns true for are kept.
    public var keepRepresentation: (@Sendable (DASHRepresentationSummary) -> Bool)?
    /// When set, the AdaptationSet holding this Representation keeps it alone (quality lock);
    /// other AdaptationSets (audio, subtitles) follow the other rules.
    public var lockedRepresentation: DASHRepresentationSummary?
    /// When false (the default), `PatchLocation` elements are removed: a patch edits the MPD the
    /// player holds, which is the rewritten one, and could bring origin URLs back into it; without
    /// one the player refetches the whole MPD, which the proxy rewrites.
    public var keepsPatchLocations: Bool

    /// A policy routing every URL through `endpoint`, with the optional rules below.
    public init(endpoint: DASHProxyEndpoint, servedManifestURL: DASHAbsoluteURL? = nil, maximumBandwidth: UInt64? = nil,
                keepRepresentation: (@Sendable (DASHRepresentationSummary) -> Bool)? = nil,
                lockedRepresentation: DASHRepresentationSummary? = nil, keepsPatchLocations: Bool = false) {
        self.endpoint = endpoint
        self.servedManifestURL = servedManifestURL
        self.maximumBandwidth = maximumBandwidth
        self.keepRepresentation = keepRepresentation
        self.lockedRepresentation = lockedRepresentation
        self.keepsPatchLocations = keepsPatchLocations
    }

    /// Serves `representation` alone in its AdaptationSet.
    public mutating func lock(to representation: DASHRepresentationSummary) {
        lockedRepresentation = representation
    }

    /// Whether `representation` stays, before the rule that an AdaptationSet keeps at least its
    /// lowest-bandwidth Representation.
    public func keeps(_ representation: DASHRepresentationSummary) -> Bool {
        if let locked = lockedRepresentation, locked.period == representation.period,
           locked.adaptationSet == representation.adaptationSet {
            return locked.ordinal == representation.ordinal
        }
        if let maximumBandwidth, let bandwidth = representation.bandwidth, bandwidth > maximumBandwidth { return false }
        if let keepRepresentation, !keepRepresentation(representation) { return false }
        return true
    }
}

/// Why an MPD could not be rewritten for the proxy, and where.
public struct DASHRewriteError: DASHPositionedError {
    /// Why. Codes are stable strings.
    public typealias Code = ErrorCode<DASHRewriteError>

    /// Why.
    public var code: Code
    /// What is wrong, for people.
    public var message: String
    /// Where the element or attribute starts.
    public var position: DASHPosition

    /// An error at `position`.
    public init(code: Code, message: String, position: DASHPosition) {
        self.code = code
        self.message = message
        self.position = position
    }

}

extension ErrorCode where Domain == DASHRewriteError {
    /// An element with `xlink:href` (other than resolve-to-zero): its content is at another
    /// URL, which SparseCache never fetches on a player's behalf.
    public static var remoteElement: Self { Self(rawValue: "remote-element") }

    /// An http(s) URL with no path form (a `$` template identifier in its host).
    public static var unproxiable: Self { Self(rawValue: "unproxiable") }

    /// A reference inherited by Representations with different BaseURLs that resolves to
    /// different origin URLs for them and cannot be kept as written.
    public static var ambiguousReference: Self { Self(rawValue: "ambiguous-reference") }
}
