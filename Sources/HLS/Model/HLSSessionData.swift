/// EXT-X-SESSION-DATA: data the multivariant playlist carries (inline or by URI).
public struct HLSSessionData: Hashable, Sendable {
    /// DATA-ID.
    public var dataID: String
    /// VALUE (inline data), or nil.
    public var value: String?
    /// URI of the data (JSON), variables substituted, or nil.
    public var uri: String?
    /// LANGUAGE, or nil.
    public var language: String?
    /// Every attribute as written, including ones this type has no property for.
    public var attributes: [HLSAttribute]
}
