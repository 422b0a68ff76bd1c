import HLS
import Testing

/// Rule violations: lenient mode recovers and reports them with line numbers, strict mode
/// throws the first, and input that is not a playlist fails in both.
@Suite struct DiagnosticsTests {
    static let violations: [(name: String, text: String, code: HLSDiagnostic.Code, line: Int)] = [
        ("missing target duration", "#EXTM3U\n#EXTINF:4,\na.ts\n", .playlist, 1),
        ("EXTINF without comma", "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4\na.ts\n", .malformedTag, 3),
        ("duration above target", "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:5,\na.ts\n", .playlist, 3),
        ("URI without EXTINF", "#EXTM3U\n#EXT-X-TARGETDURATION:4\na.ts\n", .orphan, 3),
        ("EXTINF without URI", "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\n", .orphan, 3),
        ("duplicate target duration", "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-TARGETDURATION:5\n", .duplicate, 3),
        ("media sequence after a segment",
         "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\na.ts\n#EXT-X-MEDIA-SEQUENCE:3\n", .placement, 5),
        ("media sequence of 2^64", "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:18446744073709551616\n",
         .malformedTag, 3),
        ("negative duration", "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:-1,\na.ts\n", .range, 3),
        ("key without method", "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-KEY:URI=\"k\"\n", .attribute, 3),
        ("map without URI", "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:4\n#EXT-X-MAP:BYTERANGE=\"1@0\"\n",
         .attribute, 4),
        ("byte range below version 4", "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\n#EXT-X-BYTERANGE:1@0\na.ts\n",
         .version, 4),
        ("stream-inf without bandwidth", "#EXTM3U\n#EXT-X-STREAM-INF:CODECS=\"x\"\na.m3u8\n", .attribute, 2),
        ("media tag in a multivariant playlist",
         "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n#EXT-X-DISCONTINUITY\n", .placement, 4),
        ("tag before the header", "#EXT-X-TARGETDURATION:4\n#EXTM3U\n", .header, 1),
        ("duplicate header", "#EXTM3U\n#EXTM3U\n#EXT-X-TARGETDURATION:4\n", .header, 2),
        ("white space in an attribute list", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1, CODECS=\"x\"\na.m3u8\n",
         .malformedTag, 2),
        ("trailing white space", "#EXTM3U\n#EXT-X-TARGETDURATION:4 \n", .whitespace, 2),
        ("daterange without ID", "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-DATERANGE:START-DATE=\"2020-01-01T00:00:00Z\"\n",
         .attribute, 3),
        ("bad program date time", "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-PROGRAM-DATE-TIME:yesterday\n",
         .malformedTag, 3),
    ]

    @Test(arguments: violations)
    func lenientModeReportsTheViolationWithItsLine(_ violation: (name: String, text: String, code: HLSDiagnostic.Code, line: Int)) throws {
        let playlist = try HLSPlaylist.parsed(violation.text)
        let first = try #require(playlist.warnings.first, "\(violation.name)")
        #expect(first.code == violation.code, "\(violation.name)")
        #expect(first.line == violation.line, "\(violation.name)")
    }

    @Test(arguments: violations)
    func strictModeThrowsTheFirstViolation(_ violation: (name: String, text: String, code: HLSDiagnostic.Code, line: Int)) {
        do throws(HLSParseError) {
            _ = try HLSPlaylist.parsed(violation.text, options: HLSParserOptions(mode: .strict))
            Issue.record("\(violation.name): strict mode accepted it")
        } catch {
            #expect(error.code == .ruleViolation)
            #expect(error.diagnostic?.code == violation.code, "\(violation.name)")
            #expect(error.line == violation.line, "\(violation.name)")
        }
    }

    @Test(arguments: ["", "\n\n", "hello world\n", "segment.ts\n#EXTM3U\n", "#EXTM3 UINVALID", "<html>#EXTM3U</html>",
                      "#EXTM3U#EXT-X-STREAM-INF:BANDWIDTH=1\nx.m3u8"])
    func inputThatIsNotAPlaylistFailsInBothModes(_ text: String) {
        for mode in [HLSParserOptions.Mode.lenient, .strict] {
            #expect(throws: HLSParseError(code: .notAPlaylist, message: "", line: 0)) {
                try HLSPlaylist.parsed(text, options: HLSParserOptions(mode: mode))
            }
        }
    }

    @Test func aValidPlaylistPassesStrictMode() throws {
        for name in ["handwritten/aes128-vod.m3u8", "handwritten/master-alternatives.m3u8", "handwritten/llhls-live.m3u8",
                     "ffmpeg/ts.m3u8", "ffmpeg/fmp4.m3u8", "ffmpeg/single-file-fmp4.m3u8", "ffmpeg/master.m3u8"] {
            #expect(throws: Never.self, "\(name)") {
                try HLSPlaylist(parsing: try TestFiles.fixture(name), options: HLSParserOptions(mode: .strict))
            }
        }
    }

    @Test func orphanLinesAreReportedAndKeptOutOfTheModel() throws {
        let playlist = try HLSPlaylist(parsing: try TestFiles.fixture("handwritten/malformed-orphans.m3u8"))
        #expect(playlist.segments.map(\.uri) == ["no-comma.ts", "bad-duration.ts", "implicit-without-previous.ts",
                                                 "negative.ts", "after-endlist.ts"])
        #expect(playlist.segments[1].duration == HLSDecimal("0"))
        #expect(playlist.segments[3].duration.text == "-1")
        let codes = Set(playlist.warnings.map(\.code))
        #expect(codes.isSuperset(of: [.orphan, .malformedTag, .byteRange, .attribute, .range, .placement]))
        #expect(playlist.warnings.allSatisfy { $0.line >= 1 && $0.line <= 19 })
    }
}
