/// EXT-X-SERVER-CONTROL: what a low-latency server supports.
public struct HLSServerControl: Hashable, Sendable {
    public var canSkipUntil: HLSDecimal?
    public var canSkipDateRanges: Bool
    public var holdBack: HLSDecimal?
    public var partHoldBack: HLSDecimal?
    public var canBlockReload: Bool
    public var attributes: [HLSAttribute]
}

/// EXT-X-SKIP: how many segments a delta update left out.
public struct HLSSkip: Hashable, Sendable {
    public var skippedSegments: UInt64
    /// RECENTLY-REMOVED-DATERANGES, split at tabs.
    public var recentlyRemovedDateRanges: [String]
    public var attributes: [HLSAttribute]
}

/// EXT-X-START: where playback should start.
public struct HLSStart: Hashable, Sendable {
    /// Seconds from the start (or, when negative, from the end) of the playlist.
    public var timeOffset: HLSDecimal
    public var precise: Bool
    public var attributes: [HLSAttribute]
}

/// A variable from EXT-X-DEFINE, with its value as substituted.
public struct HLSVariable: Hashable, Sendable {
    public var name: String
    public var value: String
}
