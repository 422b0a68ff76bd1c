/// Decides, during ``HLSPlaylist/rewritten(base:policy:)``, where each URI points and which
/// variants and renditions stay. The rewriter calls it once per URI and once per variant, in
/// playlist order.
public protocol HLSRewritePolicy {
    /// Where `reference` should point in the rewritten playlist.
    func route(for reference: HLSURIReference) -> HLSURIRoute
    /// Whether a variant stays, and with which BANDWIDTH. The default keeps every variant as is.
    func decision(for variant: HLSVariantSummary) -> HLSVariantDecision
    /// Whether EXT-X-MEDIA renditions that no kept variant references (by TYPE and GROUP-ID,
    /// through its AUDIO, VIDEO, SUBTITLES or CLOSED-CAPTIONS attribute) are removed with their
    /// line. The default, false, keeps every rendition.
    var dropsUnreferencedRenditions: Bool { get }
    /// Whether the EXT-X-MEDIA rendition at `index` of ``HLSPlaylist/renditions`` may stay (it
    /// is still dropped when ``dropsUnreferencedRenditions`` and no kept variant references it).
    /// The default keeps every rendition.
    func keepsRendition(at index: Int) -> Bool
}

extension HLSRewritePolicy {
    /// Keeps every variant as it is.
    public func decision(for variant: HLSVariantSummary) -> HLSVariantDecision { .keep }

    /// False: every rendition stays.
    public var dropsUnreferencedRenditions: Bool { false }

    /// True: every rendition may stay.
    public func keepsRendition(at index: Int) -> Bool { true }
}
