/// EXT-X-SKIP: how many segments a delta update left out.
public struct HLSSkip: Hashable, Sendable {
    /// SKIPPED-SEGMENTS.
    public var skippedSegments: UInt64
    /// RECENTLY-REMOVED-DATERANGES, split at tabs.
    public var recentlyRemovedDateRanges: [String]
    /// Every attribute as written, including ones this type has no property for.
    public var attributes: [HLSAttribute]
}
