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
    /// For segments, parts and preload hints of parts: the index of the segment they belong to
    /// (for a hinted part, the segment being produced, which equals the segment count).
    public var segmentIndex: Int?

    /// A reference to the URI of the `index`th holder of `role`.
    public init(role: Role, index: Int, segmentIndex: Int? = nil) {
        self.role = role
        self.index = index
        self.segmentIndex = segmentIndex
    }
}
