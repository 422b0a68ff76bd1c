/// EXT-X-DATERANGE: a span of time with metadata (ad breaks with SCTE-35, interstitials, ...).
public struct HLSDateRange: Hashable, Sendable {
    /// ID: identifies the date range; tags with the same ID describe the same range.
    public var id: String
    /// CLASS, or nil.
    public var dateRangeClass: String?
    /// START-DATE as written, or nil.
    public var startDate: String?
    /// END-DATE as written, or nil.
    public var endDate: String?
    /// DURATION in seconds, as written.
    public var duration: HLSDecimal?
    /// PLANNED-DURATION in seconds, as written, or nil.
    public var plannedDuration: HLSDecimal?
    /// END-ON-NEXT=YES.
    public var endOnNext: Bool
    /// SCTE35-CMD, SCTE35-OUT and SCTE35-IN as written (`0x...`).
    public var scte35Command: String?
    /// SCTE35-OUT as written, or nil.
    public var scte35Out: String?
    /// SCTE35-IN as written, or nil.
    public var scte35In: String?
    /// Client-defined `X-` attributes, in order.
    public var clientAttributes: [HLSAttribute]
    /// Index of the segment the tag precedes (the segment count when it trails them all).
    public var segmentIndex: Int
    /// Every attribute as written, including ones this type has no property for.
    public var attributes: [HLSAttribute]
}
