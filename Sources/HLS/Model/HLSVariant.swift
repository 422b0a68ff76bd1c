/// EXT-X-STREAM-INF with its URI line, or EXT-X-I-FRAME-STREAM-INF with its URI attribute.
public struct HLSVariant: Hashable, Sendable {
    /// Variables substituted, not resolved.
    public var uri: String
    public var bandwidth: UInt64?
    public var averageBandwidth: UInt64?
    public var codecs: String?
    public var resolution: HLSResolution?
    public var frameRate: HLSDecimal?
    public var audio: String?
    public var video: String?
    public var subtitles: String?
    /// A group name, or `NONE`.
    public var closedCaptions: String?
    /// True for EXT-X-I-FRAME-STREAM-INF.
    public var isIFrameOnly: Bool
    public var attributes: [HLSAttribute]
}

/// RESOLUTION: width and height in pixels.
public struct HLSResolution: Hashable, Sendable, CustomStringConvertible {
    public var width: UInt64
    public var height: UInt64

    public init(width: UInt64, height: UInt64) {
        self.width = width
        self.height = height
    }

    /// `WIDTHxHEIGHT`.
    public var description: String { "\(width)x\(height)" }
}
