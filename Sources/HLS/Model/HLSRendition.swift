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
