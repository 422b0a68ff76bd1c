/// EXT-X-SERVER-CONTROL: what a low-latency server supports.
public struct HLSServerControl: Hashable, Sendable {
    /// CAN-SKIP-UNTIL in seconds, or nil.
    public var canSkipUntil: HLSDecimal?
    /// CAN-SKIP-DATERANGES=YES.
    public var canSkipDateRanges: Bool
    /// HOLD-BACK in seconds, or nil.
    public var holdBack: HLSDecimal?
    /// PART-HOLD-BACK in seconds, or nil.
    public var partHoldBack: HLSDecimal?
    /// CAN-BLOCK-RELOAD=YES.
    public var canBlockReload: Bool
    /// Every attribute as written, including ones this type has no property for.
    public var attributes: [HLSAttribute]
}
