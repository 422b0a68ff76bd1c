import HLS
import Testing

/// Hide-until-buffered: a VOD playlist cut after its first segments and served as a growing
/// EVENT playlist.
@Suite struct EventPlaylistTests {
    static let fixture = "handwritten/vod-growing.m3u8"

    /// The fixture's lines after `#EXTM3U` up to the first segment's tags, as served while growing.
    static let growingHead = [
        "#EXTM3U",
        "#EXT-X-START:TIME-OFFSET=0",
        "#EXT-X-VERSION:7",
        "#EXT-X-TARGETDURATION:4",
        "#EXT-X-PLAYLIST-TYPE:EVENT",
        "#EXT-X-INDEPENDENT-SEGMENTS",
        "# packaged by hand",
    ]

    /// The lines of each segment that the cut keeps (tags after the previous URI line that stand
    /// before the cut belong to the earlier segment's run, like the comment before segment 2).
    static let segmentLines = [
        ["#EXT-X-MAP:URI=\"init.mp4\"", "#EXTINF:4.000,", "seg0.m4s"],
        ["#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"k1.bin\",KEYFORMAT=\"identity\"", "#EXTINF:4.000,", "seg1.m4s",
         "# between segments"],
        ["#EXT-X-DISCONTINUITY", "#EXTINF:3.5,", "seg2.m4s"],
    ]

    @Test(arguments: 0...3)
    func listsTheFirstSegmentsAsAGrowingEventPlaylist(_ count: Int) throws {
        let playlist = try HLSPlaylist(parsing: try TestFiles.fixture(Self.fixture))
        let output = try playlist.eventPlaylist(listingFirst: count)
        let expected = (Self.growingHead + Self.segmentLines.prefix(count).joined()).joined(separator: "\n") + "\n"
        #expect(String(decoding: output, as: UTF8.self) == expected)

        let served = try HLSPlaylist(parsing: output, options: HLSParserOptions(mode: .strict))
        #expect(served.segments.map(\.uri) == Array(playlist.segments.map(\.uri).prefix(count)))
        #expect(served.playlistType == .event)
        #expect(!served.endList)
        #expect(served.isLive)
        #expect(served.start?.timeOffset == HLSDecimal("0"))
    }

    @Test(arguments: [4, 5, 1000])
    func listingEverySegmentGivesBackTheOriginalBytes(_ count: Int) throws {
        let bytes = try TestFiles.fixture(Self.fixture)
        #expect(try HLSPlaylist(parsing: bytes).eventPlaylist(listingFirst: count) == bytes)
    }

    @Test func replacesAnExistingStartAndInsertsTheTypeWithTheLineEndingsOfThePlaylist() throws {
        let input = "#EXTM3U\r\n#EXT-X-TARGETDURATION:6\r\n#EXT-X-START:TIME-OFFSET=-12.5,PRECISE=YES \r\n"
            + "#EXTINF:6,\r\na.ts\r\n#EXTINF:6,\r\nb.ts\r\n#EXT-X-ENDLIST\r\n"
        #expect(try Self.cut(input, listing: 1) == "#EXTM3U\r\n#EXT-X-PLAYLIST-TYPE:EVENT\r\n#EXT-X-TARGETDURATION:6\r\n#EXT-X-START:TIME-OFFSET=0 \r\n"
                + "#EXTINF:6,\r\na.ts\r\n")
    }

    @Test func keepsTagsAboutThePlaylistThatStandAfterTheCut() throws {
        let input = "#EXTM3U\n#EXTINF:6,\na.ts\n#EXTINF:6,\nb.ts\n# trailing comment\n#EXT-X-TARGETDURATION:6\n"
            + "#EXT-X-FOO:1\n#EXT-X-ENDLIST\n#EXT-X-VERSION:3"
        let output = try Self.cut(input, listing: 1)
        #expect(output == "#EXTM3U\n#EXT-X-PLAYLIST-TYPE:EVENT\n#EXT-X-START:TIME-OFFSET=0\n#EXTINF:6,\na.ts\n"
                + "#EXT-X-TARGETDURATION:6\n#EXT-X-VERSION:3")
        #expect(try HLSPlaylist(parsing: output, options: HLSParserOptions(mode: .strict)).segments.count == 1)
    }

    @Test func aFinishedEventPlaylistStaysAnEventPlaylistWithoutItsEnd() throws {
        let input = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:EVENT\n#EXTINF:6,\na.ts\n#EXTINF:6,\nb.ts\n#EXT-X-ENDLIST\n"
        #expect(try Self.cut(input, listing: 1) == "#EXTM3U\n#EXT-X-START:TIME-OFFSET=0\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:EVENT\n#EXTINF:6,\na.ts\n")
    }

    @Test func aMalformedTypeIsRewrittenNotDuplicated() throws {
        let input = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:vod\n#EXT-X-START:PRECISE=YES\n#EXTINF:6,\na.ts\n#EXTINF:6,\nb.ts\n#EXT-X-ENDLIST\n"
        #expect(try Self.cut(input, listing: 1)
                == "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:EVENT\n#EXT-X-START:TIME-OFFSET=0\n#EXTINF:6,\na.ts\n")
    }

    @Test func aByteOrderMarkStaysFirst() throws {
        let input = [0xEF, 0xBB, 0xBF] + Array("#EXT-X-TARGETDURATION:6\n#EXTINF:6,\na.ts\n#EXT-X-ENDLIST\n".utf8)
        let output = try HLSPlaylist(parsing: input).eventPlaylist(listingFirst: 0)
        #expect(output == [0xEF, 0xBB, 0xBF]
                + Array("#EXT-X-PLAYLIST-TYPE:EVENT\n#EXT-X-START:TIME-OFFSET=0\n#EXT-X-TARGETDURATION:6\n".utf8))
    }

    @Test func cuttingTheRewriteEqualsRewritingTheCut() throws {
        let playlist = try HLSPlaylist(parsing: try TestFiles.fixture(Self.fixture))
        let base = RewriterTests.base
        let policy = HLSProxyRewritePolicy(endpoint: RewriterTests.endpoint, headSegmentCount: 1)
        let rewritten = try HLSPlaylist(parsing: playlist.rewritten(base: base, policy: policy))
        for count in 0...4 {
            let cutFirst = try HLSPlaylist(parsing: try playlist.eventPlaylist(listingFirst: count))
            #expect(try rewritten.eventPlaylist(listingFirst: count) == cutFirst.rewritten(base: base, policy: policy))
        }
    }

    @Test func refusesLiveAndMultivariantPlaylists() throws {
        let live = try HLSPlaylist(parsing: try TestFiles.fixture("handwritten/live-window.m3u8"))
        #expect(throws: HLSComposeError(code: .live, message: "")) { try live.eventPlaylist(listingFirst: 1) }
        let master = try HLSPlaylist(parsing: try TestFiles.fixture("handwritten/master-alternatives.m3u8"))
        #expect(throws: HLSComposeError(code: .multivariant, message: "")) { try master.eventPlaylist(listingFirst: 1) }
    }

    /// Every VOD playlist of the fixtures and the shared corpus, cut at its start, after one
    /// segment, in the middle and at its end: the result parses to the listed prefix, and every
    /// line it keeps is a line of the original, in order.
    @Test(arguments: CorpusSelection.finishedMedia)
    func everyCutOfAFinishedPlaylistIsItsPrefix(_ name: String) throws {
        let input = try CorpusTests.bytes(name)
        let playlist = try HLSPlaylist(parsing: input)
        try #require(playlist.kind == .media && !playlist.isLive && playlist.skip == nil, "\(name) is not a finished media playlist")
        let strict = (try? HLSPlaylist(parsing: input, options: HLSParserOptions(mode: .strict))) != nil
        let total = playlist.segments.count
        for count in Set([0, 1, total / 2, total]) {
            let output = try playlist.eventPlaylist(listingFirst: count)
            let served = try HLSPlaylist(parsing: output)
            #expect(served.segments.count == min(count, total), "\(name) at \(count)")
            #expect(served.segments.map(\.uri) == Array(playlist.segments.map(\.uri).prefix(count)))
            if strict {
                #expect(throws: Never.self, "\(name) at \(count)") {
                    try HLSPlaylist(parsing: output, options: HLSParserOptions(mode: .strict))
                }
            }
            guard count < total else {
                #expect(output == input)
                continue
            }
            #expect(served.playlistType == .event && !served.endList && served.start?.timeOffset == HLSDecimal("0"))
            let originalLines = Self.lines(input)
            var next = originalLines.startIndex
            for line in Self.lines(output) where !line.hasPrefix("#EXT-X-PLAYLIST-TYPE:") && !line.hasPrefix("#EXT-X-START:") {
                guard let found = originalLines[next...].firstIndex(of: line) else {
                    Issue.record("\(name) at \(count): line not in the original, or out of order: \(line)")
                    break
                }
                next = found + 1
            }
        }
    }

    /// The cut property above is exercised on enough playlists.
    @Test func enoughFinishedPlaylistsAreCut() {
        let (corpus, fixtures) = CorpusSelection.counts(CorpusSelection.finishedMedia)
        #expect(fixtures >= CorpusSelection.Minimum.finishedMediaFixtures, "\(fixtures) fixtures are finished media playlists")
        if TestFiles.corpusIsPresent {
            #expect(corpus >= CorpusSelection.Minimum.finishedMediaCorpus, "\(corpus) corpus playlists are finished media playlists")
        }
    }

    static func cut(_ input: String, listing count: Int) throws -> String {
        String(decoding: try HLSPlaylist.parsed(input).eventPlaylist(listingFirst: count), as: UTF8.self)
    }

    /// The non-empty lines, whatever ends them.
    static func lines(_ bytes: [UInt8]) -> [String] {
        bytes.split { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }.map { String(decoding: $0, as: UTF8.self) }
    }
}
