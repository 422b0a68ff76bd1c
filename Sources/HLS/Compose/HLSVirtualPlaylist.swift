/// Several VOD media playlists joined into one that plays them in order: a feed of short videos
/// that a player sees as one presentation.
///
/// The joined playlist is written from the parts' models, not copied from their bytes:
/// - `#EXTM3U`, then EXT-X-VERSION (see below), EXT-X-TARGETDURATION (the largest of the parts'
///   and of every EXTINF duration rounded to an integer), `EXT-X-MEDIA-SEQUENCE:0`,
///   `EXT-X-PLAYLIST-TYPE:VOD`, EXT-X-INDEPENDENT-SEGMENTS when every part has it; the segments;
///   `EXT-X-ENDLIST`.
/// - EXT-X-DISCONTINUITY before the first segment of every part but the first, and wherever a
///   part has one.
/// - Each part's EXT-X-MAP is written before its first segment and again wherever it changes;
///   its BYTERANGE always with an explicit offset.
/// - EXT-X-KEY is written wherever the keys in force change, and before the first segment of
///   every part that has keys; `EXT-X-KEY:METHOD=NONE` ends keys that the next segments do not
///   have (a part without keys after a keyed part, or a KEYFORMAT that goes away).
/// - EXTINF durations and titles as written; EXT-X-BYTERANGE with an explicit offset;
///   EXT-X-PROGRAM-DATE-TIME as written; EXT-X-GAP.
/// - Every URI (segments, maps, keys) resolved against its part's URL (RFC 3986), so that a
///   later rewrite routes each to its origin; bytes a URI line or quoted string cannot hold
///   are percent-encoded. EXT-X-DEFINE variables are substituted in URIs, KEYFORMAT and
///   KEYFORMATVERSIONS; other attributes of keys and maps are copied as written.
/// - EXT-X-VERSION is the highest of what the parts declare and what the joined playlist needs
///   (2 for IV, 3 for decimal EXTINF, 4 for byte ranges, 5 for KEYFORMAT, 6 for EXT-X-MAP).
/// - Left out: EXT-X-BITRATE (it would stay in force into the next part), EXT-X-DATERANGE
///   (IDs of different parts may clash), EXT-X-START, comments, unknown tags, and low-latency
///   tags, which a VOD playlist does not need.
///
/// ```swift
/// let firstURL = HLSBaseURL("https://cdn.example.com/a/index.m3u8")!
/// let joined = try HLSVirtualPlaylist(joining: [
///     .init(playlist: first, url: firstURL),
///     .init(playlist: second, url: HLSBaseURL("https://cdn.example.com/b/index.m3u8")!),
/// ])
/// // Every URI is absolute, so any base will do for the rewrite.
/// let served = joined.playlist.rewritten(base: firstURL, policy: policy)
/// let (part, segment) = joined.part(containingSegment: 7)
/// let position = joined.timeline.startTime(ofSegment: 7)
/// ```
public struct HLSVirtualPlaylist: Sendable {
    /// One playlist to join and the URL it came from (after redirects).
    public struct Part: Sendable {
        /// A VOD media playlist (or one with EXT-X-ENDLIST).
        public var playlist: HLSPlaylist
        /// What its relative URIs resolve against.
        public var url: HLSBaseURL

        /// A part: `playlist`, fetched from `url`.
        public init(playlist: HLSPlaylist, url: HLSBaseURL) {
            self.playlist = playlist
            self.url = url
        }
    }

    /// The joined playlist, parsed from its bytes (``HLSPlaylist/bytes``).
    public let playlist: HLSPlaylist
    /// For each part, the index of its first segment in the joined playlist; ascending.
    public let partStarts: [Int]
    /// Where each joined segment starts in media time.
    public let timeline: HLSTimeline

    /// The joined playlist's bytes.
    public var bytes: [UInt8] { playlist.bytes }

    /// Joins `parts` in order.
    ///
    /// - Parameters:
    ///   - parts: the playlists, in playing order.
    ///   - limits: the limits the joined playlist is read back with; a join that would exceed
    ///     them fails rather than give bytes that cannot be parsed again.
    /// - Throws: ``HLSComposeError`` naming the part at fault: `HLSComposeError.Code.noParts`,
    ///   `HLSComposeError.Code.multivariant`, `HLSComposeError.Code.iFramesOnly`,
    ///   `HLSComposeError.Code.live`, `HLSComposeError.Code.deltaUpdate`,
    ///   `HLSComposeError.Code.empty`, `HLSComposeError.Code.missingMap` or
    ///   `HLSComposeError.Code.limitExceeded`.
    public init(joining parts: [Part], limits: HLSParserLimits = HLSParserLimits()) throws(HLSComposeError) {
        guard !parts.isEmpty else {
            throw HLSComposeError(code: .noParts, message: "no playlist to join")
        }
        var starts: [Int] = []
        var segmentCount = 0
        for (index, part) in parts.enumerated() {
            try Self.checkJoinable(part.playlist, index: index)
            starts.append(segmentCount)
            segmentCount += part.playlist.segments.count
        }
        guard segmentCount <= limits.maximumSegments else {
            throw HLSComposeError(code: .limitExceeded,
                                  message: "\(segmentCount) segments exceed the limit of \(limits.maximumSegments)")
        }
        var writer = VirtualPlaylistWriter()
        for (index, part) in parts.enumerated() {
            try writer.append(part, index: index)
        }
        let bytes = writer.finish(independentSegments: parts.allSatisfy(\.playlist.independentSegments))
        do {
            playlist = try HLSPlaylist(parsing: bytes, options: HLSParserOptions(limits: limits))
        } catch {
            throw HLSComposeError(code: .limitExceeded, message: "the joined playlist cannot be read back: \(error)")
        }
        partStarts = starts
        timeline = HLSTimeline(playlist)
    }

    /// Which part the joined segment `index` comes from, and its index in that part's playlist.
    /// `index` must be in `0..<playlist.segments.count`.
    public func part(containingSegment index: Int) -> (part: Int, segment: Int) {
        precondition(index >= 0 && index < timeline.count, "segment index out of range")
        // The last part that starts at or before `index` (parts never start after the end).
        var low = 0
        var high = partStarts.count
        while low < high {
            let middle = (low + high) / 2
            if partStarts[middle] <= index { low = middle + 1 } else { high = middle }
        }
        return (low - 1, index - partStarts[low - 1])
    }

    private static func checkJoinable(_ playlist: HLSPlaylist, index: Int) throws(HLSComposeError) {
        func refuse(_ code: HLSComposeError.Code, _ message: String) -> HLSComposeError {
            HLSComposeError(code: code, message: message, partIndex: index)
        }
        if playlist.kind == .master {
            throw refuse(.multivariant, "a multivariant playlist cannot be joined; join one of its variants")
        }
        if playlist.iFramesOnly {
            throw refuse(.iFramesOnly, "an I-frame-only playlist cannot be joined")
        }
        if playlist.isLive {
            throw refuse(.live, "a live playlist (no EXT-X-ENDLIST, not VOD) cannot be joined")
        }
        if playlist.skip != nil {
            throw refuse(.deltaUpdate, "a delta update (EXT-X-SKIP) does not list every segment")
        }
        if playlist.segments.isEmpty {
            throw refuse(.empty, "a playlist without segments cannot be joined")
        }
    }
}
