/// EXT-X-DATERANGE: a span of time with metadata (ad breaks with SCTE-35, interstitials, ...).
public struct HLSDateRange: Hashable, Sendable {
    public var id: String
    public var dateRangeClass: String?
    public var startDate: String?
    public var endDate: String?
    public var duration: HLSDecimal?
    public var plannedDuration: HLSDecimal?
    public var endOnNext: Bool
    /// SCTE35-CMD, SCTE35-OUT and SCTE35-IN as written (`0x...`).
    public var scte35Command: String?
    public var scte35Out: String?
    public var scte35In: String?
    /// Client-defined `X-` attributes, in order.
    public var clientAttributes: [HLSAttribute]
    /// Index of the segment the tag precedes (the segment count when it trails them all).
    public var segmentIndex: Int
    public var attributes: [HLSAttribute]
}
