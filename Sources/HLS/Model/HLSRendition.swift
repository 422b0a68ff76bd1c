/// EXT-X-MEDIA: an alternative rendition (audio, video, subtitles or closed captions).
public struct HLSRendition: Hashable, Sendable {
    /// `AUDIO`, `VIDEO`, `SUBTITLES` or `CLOSED-CAPTIONS`.
    public var type: String
    public var groupID: String
    public var name: String
    /// Variables substituted; nil for renditions carried in the variant's own stream.
    public var uri: String?
    public var language: String?
    public var isDefault: Bool
    public var autoselect: Bool
    public var attributes: [HLSAttribute]
}

/// EXT-X-SESSION-DATA: data the multivariant playlist carries (inline or by URI).
public struct HLSSessionData: Hashable, Sendable {
    public var dataID: String
    public var value: String?
    public var uri: String?
    public var language: String?
    public var attributes: [HLSAttribute]
}

/// EXT-X-CONTENT-STEERING: where the steering manifest is.
public struct HLSContentSteering: Hashable, Sendable {
    public var serverURI: String
    public var pathwayID: String?
    public var attributes: [HLSAttribute]
}
