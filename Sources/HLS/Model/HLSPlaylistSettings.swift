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

/// EXT-X-SKIP: how many segments a delta update left out.
public struct HLSSkip: Hashable, Sendable {
    /// SKIPPED-SEGMENTS.
    public var skippedSegments: UInt64
    /// RECENTLY-REMOVED-DATERANGES, split at tabs.
    public var recentlyRemovedDateRanges: [String]
    /// Every attribute as written, including ones this type has no property for.
    public var attributes: [HLSAttribute]
}

/// EXT-X-START: where playback should start.
public struct HLSStart: Hashable, Sendable {
    /// Seconds from the start (or, when negative, from the end) of the playlist.
    public var timeOffset: HLSDecimal
    /// PRECISE=YES.
    public var precise: Bool
    /// Every attribute as written, including ones this type has no property for.
    public var attributes: [HLSAttribute]
}

/// A variable from EXT-X-DEFINE, with its value as substituted.
public struct HLSVariable: Hashable, Sendable {
    /// The variable name.
    public var name: String
    /// The value substituted for `{$name}`.
    public var value: String
}
