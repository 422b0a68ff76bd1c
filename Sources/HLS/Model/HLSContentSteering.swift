/// EXT-X-CONTENT-STEERING: where the steering manifest is.
public struct HLSContentSteering: Hashable, Sendable {
    /// SERVER-URI, variables substituted, not resolved.
    public var serverURI: String
    /// PATHWAY-ID, or nil.
    public var pathwayID: String?
    /// Every attribute as written, including ones this type has no property for.
    public var attributes: [HLSAttribute]
}
