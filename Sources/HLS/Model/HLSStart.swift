/// EXT-X-START: where playback should start.
public struct HLSStart: Hashable, Sendable {
    /// Seconds from the start (or, when negative, from the end) of the playlist.
    public var timeOffset: HLSDecimal
    /// PRECISE=YES.
    public var precise: Bool
    /// Every attribute as written, including ones this type has no property for.
    public var attributes: [HLSAttribute]
}
