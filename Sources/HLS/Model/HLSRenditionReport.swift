/// EXT-X-RENDITION-REPORT: the state of another rendition's playlist.
public struct HLSRenditionReport: Hashable, Sendable {
    /// The URI, variables substituted, not resolved.
    public var uri: String
    /// LAST-MSN, or nil.
    public var lastMediaSequenceNumber: UInt64?
    /// LAST-PART, or nil.
    public var lastPart: UInt64?
    /// Every attribute as written, including ones this type has no property for.
    public var attributes: [HLSAttribute]
}
