/// EXT-X-PART: a partial segment of low-latency HLS.
public struct HLSPart: Hashable, Sendable {
    public var uri: String
    public var duration: HLSDecimal
    /// BYTERANGE with its implicit offset resolved, or nil.
    public var byteRange: HLSByteRange?
    public var independent: Bool
    public var gap: Bool
    /// Index of the parent segment in ``HLSPlaylist/segments``; equal to the segment count for
    /// the parts of the segment still being produced.
    public var segmentIndex: Int
    public var attributes: [HLSAttribute]
}

/// EXT-X-PRELOAD-HINT: a resource the server announces before it exists.
public struct HLSPreloadHint: Hashable, Sendable {
    /// `PART` or `MAP`.
    public var type: String
    public var uri: String
    /// BYTERANGE-START (0 when absent).
    public var byteRangeStart: UInt64
    /// BYTERANGE-LENGTH, or nil when the hint runs to the end of the resource.
    public var byteRangeLength: UInt64?
    public var attributes: [HLSAttribute]
}

/// EXT-X-RENDITION-REPORT: the state of another rendition's playlist.
public struct HLSRenditionReport: Hashable, Sendable {
    public var uri: String
    public var lastMediaSequenceNumber: UInt64?
    public var lastPart: UInt64?
    public var attributes: [HLSAttribute]
}
