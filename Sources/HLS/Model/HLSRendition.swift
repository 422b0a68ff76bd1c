/// EXT-X-MEDIA: an alternative rendition (audio, video, subtitles or closed captions).
public struct HLSRendition: Hashable, Sendable {
    /// `AUDIO`, `VIDEO`, `SUBTITLES` or `CLOSED-CAPTIONS`.
    public var type: String
    /// GROUP-ID.
    public var groupID: String
    /// NAME: a human-readable description.
    public var name: String
    /// Variables substituted; nil for renditions carried in the variant's own stream.
    public var uri: String?
    /// LANGUAGE, or nil.
    public var language: String?
    /// DEFAULT=YES.
    public var isDefault: Bool
    /// AUTOSELECT=YES.
    public var autoselect: Bool
    /// Every attribute as written, including ones this type has no property for.
    public var attributes: [HLSAttribute]
}

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

/// EXT-X-CONTENT-STEERING: where the steering manifest is.
public struct HLSContentSteering: Hashable, Sendable {
    /// SERVER-URI, variables substituted, not resolved.
    public var serverURI: String
    /// PATHWAY-ID, or nil.
    public var pathwayID: String?
    /// Every attribute as written, including ones this type has no property for.
    public var attributes: [HLSAttribute]
}
