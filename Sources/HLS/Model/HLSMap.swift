/// EXT-X-MAP: the Media Initialization Section that segments after it need.
public struct HLSMap: Hashable, Sendable {
    /// Variables substituted.
    public var uri: String
    /// The sub-range of the resource, or nil for the whole resource.
    public var byteRange: HLSByteRange?
    /// Every attribute as written, including ones this type has no property for.
    public var attributes: [HLSAttribute]
}
