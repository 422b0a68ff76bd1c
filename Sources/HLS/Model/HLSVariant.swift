/// EXT-X-STREAM-INF with its URI line, or EXT-X-I-FRAME-STREAM-INF with its URI attribute.
public struct HLSVariant: Hashable, Sendable {
    /// Variables substituted, not resolved.
    public var uri: String
    /// BANDWIDTH, in bits per second.
    public var bandwidth: UInt64?
    /// AVERAGE-BANDWIDTH, in bits per second.
    public var averageBandwidth: UInt64?
    /// CODECS, variables substituted, or nil.
    public var codecs: String?
    /// RESOLUTION, or nil.
    public var resolution: HLSResolution?
    /// FRAME-RATE, as written, or nil.
    public var frameRate: HLSDecimal?
    /// AUDIO: the EXT-X-MEDIA group of audio renditions, or nil.
    public var audio: String?
    /// VIDEO: the EXT-X-MEDIA group of video renditions, or nil.
    public var video: String?
    /// SUBTITLES: the EXT-X-MEDIA group of subtitle renditions, or nil.
    public var subtitles: String?
    /// A group name, or `NONE`.
    public var closedCaptions: String?
    /// True for EXT-X-I-FRAME-STREAM-INF.
    public var isIFrameOnly: Bool
    /// Every attribute as written, including ones this type has no property for.
    public var attributes: [HLSAttribute]
}
