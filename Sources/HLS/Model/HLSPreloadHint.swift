/// EXT-X-PRELOAD-HINT: a resource the server announces before it exists.
public struct HLSPreloadHint: Hashable, Sendable {
    /// `PART` or `MAP`.
    public var type: String
    /// The URI, variables substituted, not resolved.
    public var uri: String
    /// BYTERANGE-START (0 when absent).
    public var byteRangeStart: UInt64
    /// BYTERANGE-LENGTH, or nil when the hint runs to the end of the resource.
    public var byteRangeLength: UInt64?
    /// Every attribute as written, including ones this type has no property for.
    public var attributes: [HLSAttribute]
}
