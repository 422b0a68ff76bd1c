import HLS
import Testing

/// Virtual playlists: VOD media playlists joined into one.
@Suite struct VirtualPlaylistTests {
    static let urlA = HLSBaseURL("https://origin.example.com/videos/a/index.m3u8")!
    static let urlB = HLSBaseURL("https://cdn.example.org/b/playlist.m3u8?token=xyz")!
    static let urlC = HLSBaseURL("https://origin.example.com/videos/c/index.m3u8")!
    static let strict = HLSParserOptions(mode: .strict)

    static func part(_ fixture: String, _ url: HLSBaseURL) throws -> HLSVirtualPlaylist.Part {
        HLSVirtualPlaylist.Part(playlist: try HLSPlaylist(parsing: try TestFiles.fixture("handwritten/\(fixture)")), url: url)
    }

    static func part(text: String, _ url: HLSBaseURL = urlA) throws -> HLSVirtualPlaylist.Part {
        HLSVirtualPlaylist.Part(playlist: try HLSPlaylist.parsed(text), url: url)
    }

    static func threeParts() throws -> [HLSVirtualPlaylist.Part] {
        [try part("join-ts-aes.m3u8", urlA), try part("join-fmp4-byterange.m3u8", urlB),
         try part("join-fmp4-drm.m3u8", urlC)]
    }

    @Test func joinsTSAndFMP4PartsWithTheirKeysMapsAndByteRanges() throws {
        let joined = try HLSVirtualPlaylist(joining: try Self.threeParts())
        #expect(String(decoding: joined.bytes, as: UTF8.self) == """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-TARGETDURATION:10
            #EXT-X-MEDIA-SEQUENCE:0
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXT-X-KEY:METHOD=AES-128,URI="https://origin.example.com/videos/keys/a.key",IV=0x0000000000000000000000000000000A
            #EXTINF:6.006,intro
            https://origin.example.com/videos/a/a0.ts
            #EXTINF:5.005,
            https://origin.example.com/videos/a/a1.ts
            #EXT-X-DISCONTINUITY
            #EXT-X-KEY:METHOD=NONE
            #EXT-X-MAP:URI="https://cdn.example.org/b/main.mp4",BYTERANGE="720@0"
            #EXTINF:4.000,
            #EXT-X-BYTERANGE:1000@720
            https://cdn.example.org/b/main.mp4
            #EXTINF:3.500,
            #EXT-X-BYTERANGE:900@1720
            https://cdn.example.org/b/main.mp4
            #EXT-X-DISCONTINUITY
            #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://key-c",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"
            #EXT-X-MAP:URI="https://origin.example.com/videos/c/init-1.mp4"
            #EXT-X-PROGRAM-DATE-TIME:2024-05-01T10:00:00.000Z
            #EXTINF:9.5,
            https://origin.example.com/videos/c/c0.m4s
            #EXT-X-MAP:URI="https://origin.example.com/videos/c/init-2.mp4"
            #EXTINF:10,
            https://origin.example.com/videos/c/c1.m4s
            #EXT-X-GAP
            #EXTINF:2,
            https://origin.example.com/videos/c/c2.m4s
            #EXT-X-ENDLIST

            """)
        #expect(joined.partStarts == [0, 2, 4])
        #expect((0..<7).map { joined.timeline.startTime(ofSegment: $0) } == [0, 6.006, 11.011, 15.011, 18.511, 28.011, 38.011])
        #expect(joined.timeline.totalDuration == 40.011)
        #expect((0..<7).map { joined.part(containingSegment: $0).part } == [0, 0, 1, 1, 2, 2, 2])
        #expect(joined.part(containingSegment: 5).segment == 1)
    }

    @Test func theJoinedPlaylistIsStrictlyValidAndHasEverySegmentOfItsParts() throws {
        let parts = try Self.threeParts()
        let joined = try HLSVirtualPlaylist(joining: parts)
        let reparsed = try HLSPlaylist(parsing: joined.bytes, options: Self.strict)
        let expected = parts.flatMap { part in part.playlist.segments.map { (part, $0) } }
        #expect(reparsed.segments.count == expected.count)
        #expect(reparsed.segments.map(\.duration) == expected.map(\.1.duration))
        #expect(reparsed.segments.map(\.uri) == expected.map { $0.0.url.resolve($0.1.uri) })
        #expect(reparsed.segments.map(\.byteRange) == expected.map(\.1.byteRange))
        #expect(reparsed.segments.map { $0.map?.byteRange } == expected.map { $0.1.map?.byteRange })
        #expect(reparsed.segments.map { $0.keys.map(\.method) } == expected.map { $0.1.keys.map(\.method) })
        #expect(reparsed.segments.map(\.discontinuity) == [false, false, true, false, true, false, false])
        #expect(!reparsed.isLive && reparsed.playlistType == .vod && reparsed.mediaSequence == 0)
        let sum = parts.reduce(0) { $0 + HLSTimeline($1.playlist).totalDuration }
        #expect(abs(joined.timeline.totalDuration - sum) < 1e-9)
    }

    @Test func aPartJoinedTwiceRestatesItsKeyAfterTheDiscontinuity() throws {
        let part = try Self.part("join-ts-aes.m3u8", Self.urlA)
        let joined = try HLSVirtualPlaylist(joining: [part, part])
        let text = String(decoding: joined.bytes, as: UTF8.self)
        let key = "#EXT-X-KEY:METHOD=AES-128,URI=\"https://origin.example.com/videos/keys/a.key\",IV=0x0000000000000000000000000000000A"
        #expect(text.contains("https://origin.example.com/videos/a/a1.ts\n#EXT-X-DISCONTINUITY\n\(key)\n#EXTINF:6.006,intro\n"))
        #expect(!text.contains("METHOD=NONE"))
        #expect(joined.partStarts == [0, 2])
    }

    @Test func aPartJoinedTwiceRestatesItsMapAfterTheDiscontinuity() throws {
        let part = try Self.part("join-fmp4-byterange.m3u8", Self.urlB)
        let text = String(decoding: try HLSVirtualPlaylist(joining: [part, part]).bytes, as: UTF8.self)
        let map = "#EXT-X-MAP:URI=\"https://cdn.example.org/b/main.mp4\",BYTERANGE=\"720@0\""
        #expect(text.components(separatedBy: map).count - 1 == 2)
        #expect(text.contains("#EXT-X-DISCONTINUITY\n\(map)\n#EXTINF:4.000,\n"))
    }

    @Test func aKeyFormatThatGoesAwayIsEndedWithMethodNone() throws {
        let drm = try Self.part(text: """
            #EXTM3U
            #EXT-X-VERSION:5
            #EXT-X-TARGETDURATION:6
            #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://k",KEYFORMAT="com.apple.streamingkeydelivery"
            #EXT-X-KEY:METHOD=SAMPLE-AES,URI="k.bin"
            #EXTINF:6,
            a.ts
            #EXT-X-ENDLIST
            """)
        let clear = try Self.part(text: "#EXTM3U\n#EXT-X-VERSION:5\n#EXT-X-TARGETDURATION:6\n#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"k2.bin\"\n#EXTINF:6,\nb.ts\n#EXT-X-ENDLIST\n")
        let joined = try HLSVirtualPlaylist(joining: [drm, clear])
        let text = String(decoding: joined.bytes, as: UTF8.self)
        #expect(text.contains("""
            #EXT-X-DISCONTINUITY
            #EXT-X-KEY:METHOD=NONE
            #EXT-X-KEY:METHOD=SAMPLE-AES,URI="https://origin.example.com/videos/a/k2.bin"
            #EXTINF:6,
            """))
        let reparsed = try HLSPlaylist(parsing: joined.bytes, options: Self.strict)
        #expect(reparsed.segments.map { $0.keys.count } == [2, 1])
    }

    @Test(arguments: [
        // The highest declared version wins over what the joined playlist needs...
        ([nil, "7"], "#EXTINF:6,", "7"),
        // ...and what it needs wins over what a part (wrongly) declares: decimal EXTINF needs 3.
        ([nil, nil], "#EXTINF:6.5,", "3"),
        (["2", "3"], "#EXTINF:6,", "3"),
        ([nil, nil], "#EXTINF:6,", "1"),
    ] as [([String?], String, String)])
    func theVersionIsTheHighestNeeded(_ declared: [String?], _ extinf: String, _ expected: String) throws {
        let parts = try declared.map { version in
            try Self.part(text: "#EXTM3U\n" + (version.map { "#EXT-X-VERSION:\($0)\n" } ?? "")
                          + "#EXT-X-TARGETDURATION:7\n\(extinf)\na.ts\n#EXT-X-ENDLIST\n")
        }
        let joined = try HLSVirtualPlaylist(joining: parts)
        #expect(joined.playlist.version.map(String.init) == expected)
        #expect(throws: Never.self) { try HLSPlaylist(parsing: joined.bytes, options: Self.strict) }
    }

    @Test func variablesAreSubstitutedAndTheTargetDurationCoversEverySegment() throws {
        let defined = try Self.part(text: """
            #EXTM3U
            #EXT-X-VERSION:8
            #EXT-X-DEFINE:NAME="host",VALUE="https://cdn.example.net"
            #EXT-X-TARGETDURATION:6
            #EXTINF:6,
            {$host}/d/d0.ts
            #EXTINF:6.5,
            {$host}/d/d1.ts
            #EXT-X-ENDLIST
            """)
        let joined = try HLSVirtualPlaylist(joining: [defined])
        // 6.5 rounds to 7, above the part's own (wrong) target duration.
        #expect(String(decoding: joined.bytes, as: UTF8.self) == """
            #EXTM3U
            #EXT-X-VERSION:8
            #EXT-X-TARGETDURATION:7
            #EXT-X-MEDIA-SEQUENCE:0
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXTINF:6,
            https://cdn.example.net/d/d0.ts
            #EXTINF:6.5,
            https://cdn.example.net/d/d1.ts
            #EXT-X-ENDLIST

            """)
    }

    @Test func independentSegmentsOnlyWhenEveryPartHasIt() throws {
        let fmp4 = try Self.part("join-fmp4-byterange.m3u8", Self.urlB)
        let both = try HLSVirtualPlaylist(joining: [fmp4, fmp4])
        #expect(both.playlist.independentSegments)
        let mixed = try HLSVirtualPlaylist(joining: [try Self.part("join-ts-aes.m3u8", Self.urlA), fmp4])
        #expect(!mixed.playlist.independentSegments)
    }

    @Test func urisThatCouldBreakTheirLineAreEscaped() throws {
        let hostile = HLSVirtualPlaylist.Part(
            playlist: try HLSPlaylist.parsed("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-MAP:URI=\"i.mp4\"\n#EXTINF:6,\na.ts\n#EXT-X-ENDLIST\n"),
            url: HLSBaseURL("https://origin.example.com/a\"b\r\nEXT-X-ENDLIST\r\nx/ä/index.m3u8")!)
        let joined = try HLSVirtualPlaylist(joining: [hostile])
        #expect(joined.playlist.segments.first?.uri == "https://origin.example.com/a%22b%0D%0AEXT-X-ENDLIST%0D%0Ax/%C3%A4/a.ts")
        #expect(joined.playlist.segments.first?.map?.uri == "https://origin.example.com/a%22b%0D%0AEXT-X-ENDLIST%0D%0Ax/%C3%A4/i.mp4")
        #expect(joined.playlist.segments.count == 1)
    }

    static let live = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\na.ts\n"
    static let iFrames = "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:6\n#EXT-X-I-FRAMES-ONLY\n#EXTINF:6,\n#EXT-X-BYTERANGE:100@0\na.ts\n#EXT-X-ENDLIST\n"
    static let master = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\nv.m3u8\n"
    static let empty = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-ENDLIST\n"
    static let delta = "#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-TARGETDURATION:6\n#EXT-X-SKIP:SKIPPED-SEGMENTS=3\n#EXTINF:6,\nd.ts\n#EXT-X-ENDLIST\n"
    static let vod = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:6,\nv.ts\n"

    @Test(arguments: [
        (live, HLSComposeError.Code.live),
        (iFrames, .iFramesOnly),
        (master, .multivariant),
        (empty, .empty),
        (delta, .deltaUpdate),
    ])
    func refusesAPartThatCannotBeJoinedAndNamesIt(_ text: String, _ code: HLSComposeError.Code) throws {
        let parts = [try Self.part(text: Self.vod), try Self.part(text: Self.vod), try Self.part(text: text)]
        let error = try #require(throws: HLSComposeError.self) { try HLSVirtualPlaylist(joining: parts) }
        #expect(error.code == code)
        #expect(error.partIndex == 2)
        #expect(error.description.hasPrefix("playlist 2: "))
    }

    @Test func refusesSegmentsWithoutAMapAfterAPartWithOne() throws {
        let parts = [try Self.part("join-fmp4-byterange.m3u8", Self.urlB), try Self.part("join-ts-aes.m3u8", Self.urlA)]
        let error = try #require(throws: HLSComposeError.self) { try HLSVirtualPlaylist(joining: parts) }
        #expect(error.code == .missingMap)
        #expect(error.partIndex == 1)
    }

    @Test func refusesNothingToJoinAndMoreThanTheLimits() throws {
        #expect(throws: HLSComposeError(code: .noParts, message: "")) { try HLSVirtualPlaylist(joining: []) }
        var limits = HLSParserLimits()
        limits.maximumSegments = 3
        let part = try Self.part("join-ts-aes.m3u8", Self.urlA)
        #expect(throws: HLSComposeError(code: .limitExceeded, message: "")) {
            try HLSVirtualPlaylist(joining: [part, part], limits: limits)
        }
        limits = HLSParserLimits()
        limits.maximumInputBytes = 400
        #expect(throws: HLSComposeError(code: .limitExceeded, message: "")) {
            try HLSVirtualPlaylist(joining: [part, part], limits: limits)
        }
        #expect(throws: Never.self) { try HLSVirtualPlaylist(joining: [part], limits: limits) }
    }

    /// Every playlist of the fixtures and the shared corpus, joined with itself: one that can be
    /// joined gives twice the segments, the same durations, byte ranges, maps and key methods,
    /// resolved URIs, and is strictly valid when the playlist is; any other is refused with the
    /// code its model calls for (multivariant, I-frame-only, live, delta, empty, or first segments
    /// lacking the EXT-X-MAP its later ones have), never another.
    @Test(arguments: CorpusSelection.all)
    func everyPlaylistJoinsWithItselfOrIsRefusedForItsReason(_ name: String) throws {
        let input = try CorpusTests.bytes(name)
        let playlist = try HLSPlaylist(parsing: input)
        let part = HLSVirtualPlaylist.Part(playlist: playlist, url: CorpusTests.base)
        if let refusal = CorpusSelection.joinRefusal(playlist) {
            #expect(throws: HLSComposeError(code: refusal, message: ""), "\(name)") { try HLSVirtualPlaylist(joining: [part, part]) }
            return
        }
        let joined = try HLSVirtualPlaylist(joining: [part, part])
        let segments = Array(playlist.segments)
        let reparsed = joined.playlist.segments
        #expect(reparsed.count == 2 * segments.count, "\(name)")
        #expect(reparsed.map(\.duration) == (segments + segments).map(\.duration), "\(name)")
        #expect(reparsed.map(\.byteRange) == (segments + segments).map(\.byteRange), "\(name)")
        #expect(reparsed.map { $0.map?.byteRange } == (segments + segments).map { $0.map?.byteRange }, "\(name)")
        #expect(reparsed.map { $0.keys.map(\.method) } == (segments + segments).map { $0.keys.map(\.method) }, "\(name)")
        #expect(reparsed.map(\.gap) == (segments + segments).map(\.gap), "\(name)")
        #expect(reparsed.map(\.uri) == (segments + segments).map { CorpusTests.base.resolve($0.uri) }
                    .map { String(decoding: $0.utf8.flatMap(Self.escaped), as: UTF8.self) }, "\(name)")
        if (try? HLSPlaylist(parsing: input, options: Self.strict)) != nil {
            #expect(throws: Never.self, "\(name)") { try HLSPlaylist(parsing: joined.bytes, options: Self.strict) }
        }
    }

    /// The join property above is exercised on enough playlists: the fixtures alone, and the
    /// corpus where it is present.
    @Test func enoughPlaylistsJoinWithThemselves() {
        let (corpus, fixtures) = CorpusSelection.counts(CorpusSelection.joinable)
        #expect(fixtures >= CorpusSelection.Minimum.joinableFixtures, "\(fixtures) fixtures join")
        if TestFiles.corpusIsPresent {
            #expect(corpus >= CorpusSelection.Minimum.joinableCorpus, "\(corpus) corpus playlists join")
        }
    }

    /// What the joined playlist escapes in a URI: controls, space, quote, DEL, non-ASCII and `{`.
    static func escaped(_ byte: UInt8) -> [UInt8] {
        guard byte <= 0x20 || byte == UInt8(ascii: "\"") || byte >= 0x7F || byte == UInt8(ascii: "{") else { return [byte] }
        return Array("%\(String(byte >> 4, radix: 16, uppercase: true))\(String(byte & 0xF, radix: 16, uppercase: true))".utf8)
    }
}
