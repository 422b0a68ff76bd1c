import HLS
import Testing

@Suite struct RewriterTests {
    static let base = HLSBaseURL("https://origin.example.com/path/to/index.m3u8?token=abc")!
    static let endpoint = HLSProxyEndpoint(port: 8080)
    static let proxy = HLSProxyRewritePolicy(endpoint: endpoint)

    static func proxied(_ absolute: String) -> String {
        "http://127.0.0.1:8080/proxy?url=" + PercentEncoding.encodeQueryValue(absolute)
    }

    static func rewrite(_ text: String, _ policy: HLSProxyRewritePolicy = proxy,
                        options: HLSParserOptions = HLSParserOptions()) throws -> String {
        let playlist = try HLSPlaylist.parsed(text, options: options)
        return String(decoding: playlist.rewritten(base: base, policy: policy), as: UTF8.self)
    }

    @Test func changesOnlyTheBytesOfTheURIs() throws {
        let input = "#EXTM3U\r\n# keep me\r\n#EXT-X-TARGETDURATION:6\r\n#EXT-X-FOO:URI=\"x\"\r\n#EXTINF:6.000,  title \r\n  seg.ts \r\n"
        let output = try Self.rewrite(input)
        #expect(output == "#EXTM3U\r\n# keep me\r\n#EXT-X-TARGETDURATION:6\r\n#EXT-X-FOO:URI=\"x\"\r\n#EXTINF:6.000,  title \r\n  "
                + Self.proxied("https://origin.example.com/path/to/seg.ts") + " \r\n")
    }

    @Test func visitsEveryURIAMediaPlaylistHolds() throws {
        let playlist = try HLSPlaylist(parsing: try TestFiles.fixture("handwritten/llhls-byterange-parts.m3u8"))
        let text = String(decoding: playlist.rewritten(base: Self.base, policy: Self.proxy), as: UTF8.self)
        let expected = Self.proxied("https://origin.example.com/path/to/stream.mp4")
        #expect(text.components(separatedBy: expected).count - 1 == 6)
        #expect(text.contains("#EXT-X-MAP:URI=\"\(expected)\",BYTERANGE=\"720@0\""))
        #expect(text.contains("#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"\(expected)\",BYTERANGE-START=6720"))
    }

    @Test func visitsEveryURIAMultivariantPlaylistHolds() throws {
        let input = """
            #EXTM3U
            #EXT-X-CONTENT-STEERING:SERVER-URI="/steering?video=1",PATHWAY-ID="A"
            #EXT-X-SESSION-DATA:DATA-ID="com.example.lyrics",URI="lyrics.json"
            #EXT-X-SESSION-KEY:METHOD=AES-128,URI="https://keys.example.com/k1"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="en",URI="audio/en.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=1280000,AUDIO="a"
            low.m3u8
            #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=86000,URI="iframe_low.m3u8"
            #EXT-X-IMAGE-STREAM-INF:BANDWIDTH=9000,URI="thumbs/index.m3u8"

            """
        let output = try Self.rewrite(input)
        for uri in ["https://origin.example.com/steering?video=1", "https://origin.example.com/path/to/lyrics.json",
                    "https://keys.example.com/k1", "https://origin.example.com/path/to/audio/en.m3u8",
                    "https://origin.example.com/path/to/low.m3u8", "https://origin.example.com/path/to/iframe_low.m3u8"] {
            #expect(output.contains(Self.proxied(uri)), "\(uri)")
        }
        #expect(output.contains("#EXT-X-IMAGE-STREAM-INF:BANDWIDTH=9000,URI=\"thumbs/index.m3u8\""))
    }

    @Test func keepsKeysThatAreNotHTTP() throws {
        let playlist = try HLSPlaylist(parsing: try TestFiles.fixture("handwritten/sample-aes-multi-drm.m3u8"))
        let text = String(decoding: playlist.rewritten(base: Self.base, policy: Self.proxy), as: UTF8.self)
        #expect(text.contains("URI=\"skd://asset-42\""))
        #expect(text.contains("URI=\"data:text/plain;base64,AAAAW3Bzc2g=\""))
        #expect(text.contains(Self.proxied("https://origin.example.com/path/to/init.mp4")))
    }

    @Test func headOnlyCachingKeepsLaterSegmentsOnTheOrigin() throws {
        let playlist = try HLSPlaylist(parsing: try TestFiles.fixture("ffmpeg/ts.m3u8"))
        let policy = HLSProxyRewritePolicy(endpoint: Self.endpoint, headSegmentCount: 2)
        let rewritten = try HLSPlaylist(parsing: playlist.rewritten(base: Self.base, policy: policy))
        let uris = rewritten.segments.map(\.uri)
        #expect(uris.prefix(2).allSatisfy { $0.hasPrefix("http://127.0.0.1:8080/proxy?url=") })
        #expect(Array(uris.dropFirst(2)) == (2..<6).map { "https://origin.example.com/path/to/ts_00\($0).ts" })
    }

    @Test func dropsVariantsAboveTheMaximumBandwidth() throws {
        let playlist = try HLSPlaylist(parsing: try TestFiles.fixture("handwritten/master-alternatives.m3u8"))
        let policy = HLSProxyRewritePolicy(endpoint: Self.endpoint, maximumBandwidth: 3_000_000)
        let rewritten = try HLSPlaylist(parsing: playlist.rewritten(base: Self.base, policy: policy))
        #expect(rewritten.variants.map(\.bandwidth) == [800_000, 2_500_000])
        #expect(rewritten.iFrameVariants.count == 2)
        #expect(rewritten.renditions.count == 4)
        #expect(rewritten.warnings.isEmpty)
    }

    @Test func neverDropsEveryVariant() throws {
        let playlist = try HLSPlaylist(parsing: try TestFiles.fixture("handwritten/master-alternatives.m3u8"))
        let policy = HLSProxyRewritePolicy(endpoint: Self.endpoint, maximumBandwidth: 1)
        let rewritten = try HLSPlaylist(parsing: playlist.rewritten(base: Self.base, policy: policy))
        #expect(rewritten.variants.map(\.bandwidth) == [800_000])
    }

    @Test func flattensToOneVariantAndOverridesItsBandwidth() throws {
        let playlist = try HLSPlaylist(parsing: try TestFiles.fixture("handwritten/master-alternatives.m3u8"))
        let policy = HLSProxyRewritePolicy(endpoint: Self.endpoint,
                                           keepVariant: { $0.isIFrameOnly || $0.index == 1 },
                                           bandwidthOverride: { $0.isIFrameOnly ? nil : 3_000_000 })
        let rewritten = try HLSPlaylist(parsing: playlist.rewritten(base: Self.base, policy: policy))
        #expect(rewritten.variants.map(\.bandwidth) == [3_000_000])
        #expect(rewritten.variants.first?.averageBandwidth == 3_000_000)
        #expect(rewritten.variants.first?.uri == Self.proxied("https://origin.example.com/path/to/video/720p/index.m3u8"))
    }

    /// Found by FuzzHLSSession (kept as `media-between-a-dropped-variant-and-its-uri`): the
    /// rewriter dropped every line from a dropped variant's tag to its URI, and with them an
    /// EXT-X-MEDIA written between the two, which the kept variant's AUDIO named.
    @Test func aDroppedVariantKeepsTheLinesBetweenItsTagAndItsURI() throws {
        let input = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a2\",NAME=\"\"\n"
            + "# the low variant\ns.m3u8\n\n#EXT-X-STREAM-INF:BANDWIDTH=6,AUDIO=\"a2\"\na.m3u8\n"
        let policy = HLSProxyRewritePolicy(endpoint: Self.endpoint, keepVariant: { $0.index == 1 })
        let output = try Self.rewrite(input, policy)
        let rewritten = try HLSPlaylist(parsing: Array(output.utf8), options: HLSParserOptions(mode: .strict))
        #expect(rewritten.variants.map(\.bandwidth) == [6])
        #expect(rewritten.renditions.map(\.groupID) == ["a2"])
        #expect(output.hasPrefix("#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a2\",NAME=\"\"\n# the low variant\n#EXT-X-STREAM-INF:BANDWIDTH=6,"),
                "the tag, the URI line and the blank line after it are gone: \(output)")
    }

    @Test func insertsABandwidthAttributeWhenMissing() throws {
        let policy = HLSProxyRewritePolicy(endpoint: Self.endpoint, bandwidthOverride: { _ in 42 })
        let output = try Self.rewrite("#EXTM3U\n#EXT-X-STREAM-INF:CODECS=\"x\"\na.m3u8\n#EXT-X-STREAM-INF\nb.m3u8\n", policy)
        let rewritten = try HLSPlaylist.parsed(output)
        #expect(rewritten.variants.map(\.bandwidth) == [42, 42])
        #expect(output.contains("#EXT-X-STREAM-INF:BANDWIDTH=42,CODECS=\"x\"\n"))
    }

    @Test func substitutesVariablesBeforeResolving() throws {
        let options = HLSParserOptions(playlistURL: "https://origin.example.com/path/to/index.m3u8?token=abc",
                                       importedVariables: ["session": "s1"])
        let playlist = try HLSPlaylist(parsing: try TestFiles.fixture("handwritten/define-media.m3u8"), options: options)
        let text = String(decoding: playlist.rewritten(base: Self.base, policy: Self.proxy), as: UTF8.self)
        #expect(text.contains(Self.proxied("https://cdn.example.com/show/1/seg1.m4s?t=abc&s=s1")))
        #expect(!text.contains("\n{$"))
    }

    @Test func aURICannotInjectALineOrBreakAnAttribute() throws {
        let options = HLSParserOptions(playlistURL: "https://origin.example.com/path/to/index.m3u8?evil=%0D%0A%23EXT-X-ENDLIST%22")
        let bytes = try TestFiles.fixture("handwritten/injection-attempts.m3u8")
        let playlist = try HLSPlaylist(parsing: bytes, options: options)
        for policy in [Self.proxy, HLSProxyRewritePolicy(endpoint: Self.endpoint, headSegmentCount: 0)] {
            let output = playlist.rewritten(base: Self.base, policy: policy)
            let lines = output.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            #expect(lines.count == bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).count)
            #expect(!output.contains(UInt8(ascii: "\r")))
            #expect(output.allSatisfy { $0 < 0x80 } || policy.headSegmentCount != nil)
            let rewritten = try HLSPlaylist(parsing: output, options: options)
            #expect(rewritten.segments.count == playlist.segments.count)
            #expect(!rewritten.endList || playlist.endList)
            for segment in rewritten.segments {
                #expect(!segment.uri.contains(" ") && !segment.uri.contains("\""), "\(segment.uri)")
            }
            #expect(rewritten.segments.first?.map?.uri == Self.proxied("https://origin.example.com/path/to/init.mp4?a=1,b=2#x"))
        }
    }

    @Test func aCustomRouteIsEscaped() throws {
        struct Hostile: HLSRewritePolicy {
            func route(for reference: HLSURIReference) -> HLSURIRoute {
                .custom { "\($0)\"\r\n#EXT-X-ENDLIST" }
            }
        }
        let playlist = try HLSPlaylist.parsed("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-MAP:URI=\"i.mp4\"\n#EXTINF:6,\na.ts\n")
        let output = playlist.rewritten(base: Self.base, policy: Hostile())
        let rewritten = try HLSPlaylist(parsing: output)
        #expect(!rewritten.endList)
        #expect(rewritten.segments.first?.uri == "https://origin.example.com/path/to/a.ts%22%0D%0A#EXT-X-ENDLIST")
        #expect(rewritten.segments.first?.map?.uri == "https://origin.example.com/path/to/i.mp4%22%0D%0A#EXT-X-ENDLIST")
    }

    @Test func strayLinesAreNotRewritten() throws {
        let output = try Self.rewrite("#EXTM3U\n#EXT-X-TARGETDURATION:6\nbaseURL=“junk”\n#EXTINF:6,\na.ts\n")
        #expect(output.contains("\nbaseURL=“junk”\n"))
    }

    // MARK: - Quality lock, rendition and I-frame dropping, bandwidth injection

    static func locked(to quality: HLSQuality, bandwidth: UInt64? = nil) throws -> String {
        let playlist = try HLSPlaylist(parsing: try TestFiles.fixture("handwritten/master-quality.m3u8"))
        var policy = HLSProxyRewritePolicy(endpoint: Self.endpoint)
        if let bandwidth { policy.bandwidthOverride = { _ in bandwidth } }
        policy.lock(to: try #require(playlist.variant(for: quality)))
        return String(decoding: playlist.rewritten(base: Self.base, policy: policy), as: UTF8.self)
    }

    @Test func aLockedPlaylistListsOneVariantAndTheRenditionsItReferences() throws {
        #expect(try Self.locked(to: .height(480), bandwidth: 1_500_000) == """
            #EXTM3U
            #EXT-X-VERSION:6
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac-lo",NAME="English",DEFAULT=YES,AUTOSELECT=YES,URI="\(Self.proxied("https://origin.example.com/path/to/audio/lo.m3u8"))"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",DEFAULT=NO,AUTOSELECT=YES,URI="\(Self.proxied("https://origin.example.com/path/to/subs/en.m3u8"))"
            #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="English",INSTREAM-ID="CC1"
            #EXT-X-STREAM-INF:BANDWIDTH=1500000,AVERAGE-BANDWIDTH=1500000,RESOLUTION=854x480,AUDIO="aac-lo",SUBTITLES="subs",CLOSED-CAPTIONS="cc"
            \(Self.proxied("https://origin.example.com/path/to/v480.m3u8"))

            """)
        #expect(try Self.locked(to: .height(720)) == """
            #EXTM3U
            #EXT-X-VERSION:6
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac-hi",NAME="English",DEFAULT=YES,AUTOSELECT=YES,URI="\(Self.proxied("https://origin.example.com/path/to/audio/hi.m3u8"))"
            #EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID="angles",NAME="Wide",DEFAULT=YES,AUTOSELECT=YES,URI="\(Self.proxied("https://origin.example.com/path/to/angles/wide.m3u8"))"
            #EXT-X-STREAM-INF:BANDWIDTH=2000000,RESOLUTION=1280x720,AUDIO="aac-hi",VIDEO="angles"
            \(Self.proxied("https://origin.example.com/path/to/v720-low.m3u8"))

            """)
        // CLOSED-CAPTIONS=NONE names no group.
        let lowest = try HLSPlaylist.parsed(try Self.locked(to: .height(360)))
        #expect(lowest.renditions.map(\.groupID) == ["aac-lo"])
        #expect(lowest.variants.count == 1 && lowest.iFrameVariants.isEmpty)
    }

    @Test func renditionsStayByDefaultAndGoWhenNoKeptVariantReferencesThem() throws {
        let playlist = try HLSPlaylist(parsing: try TestFiles.fixture("handwritten/master-quality.m3u8"))
        var policy = HLSProxyRewritePolicy(endpoint: Self.endpoint, maximumBandwidth: 1_500_000)
        let kept = try HLSPlaylist(parsing: playlist.rewritten(base: Self.base, policy: policy))
        #expect(kept.renditions.count == 5)
        policy.dropsUnreferencedRenditions = true
        let pruned = try HLSPlaylist(parsing: playlist.rewritten(base: Self.base, policy: policy),
                                     options: HLSParserOptions(mode: .strict))
        #expect(pruned.variants.map(\.bandwidth) == [1_200_000, 600_000, 64_000])
        #expect(pruned.renditions.map(\.groupID) == ["aac-lo", "subs", "cc"])
        #expect(pruned.iFrameVariants.count == 1)
        policy.dropsIFrameVariants = true
        let noIFrames = try HLSPlaylist(parsing: playlist.rewritten(base: Self.base, policy: policy))
        #expect(noIFrames.iFrameVariants.isEmpty && noIFrames.variants.count == 3)
    }

    @Test func aRenditionThePolicyRefusesLosesItsLineAndNothingElse() throws {
        let input = """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="English",URI="en.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="French",URI="fr.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=900,AUDIO="a"
            hi.m3u8

            """
        var policy = HLSProxyRewritePolicy(endpoint: Self.endpoint)
        policy.keepRendition = { $0 == 0 }
        let refused = try Self.rewrite(input, policy)
        let all = try Self.rewrite(input, HLSProxyRewritePolicy(endpoint: Self.endpoint))
        #expect(try HLSPlaylist.parsed(refused).renditions.map(\.name) == ["English"])
        #expect(all.split(separator: "\n").filter { !$0.contains("French") } == refused.split(separator: "\n"), "only that line goes")
        // With unreferenced renditions dropped too, a refused one stays dropped.
        policy.dropsUnreferencedRenditions = true
        #expect(try HLSPlaylist.parsed(try Self.rewrite(input, policy)).renditions.map(\.name) == ["English"])
    }

    @Test func aKeptIFrameVariantKeepsItsVideoGroup() throws {
        let input = """
            #EXTM3U
            #EXT-X-MEDIA:TYPE=VIDEO,GROUP-ID="v",NAME="Wide",URI="wide.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a",NAME="English",URI="en.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=900,VIDEO="v",AUDIO="a"
            hi.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=100
            lo.m3u8
            #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=50,VIDEO="v",URI="i.m3u8"

            """
        let policy = HLSProxyRewritePolicy(endpoint: Self.endpoint, lockedVariant: 1, dropsUnreferencedRenditions: true)
        let rewritten = try HLSPlaylist.parsed(try Self.rewrite(input, policy))
        #expect(rewritten.variants.map(\.bandwidth) == [100])
        #expect(rewritten.renditions.map(\.groupID) == ["v"])
    }

    @Test func aLockToAVariantThatIsNotThereKeepsTheLowest() throws {
        let playlist = try HLSPlaylist(parsing: try TestFiles.fixture("handwritten/master-quality.m3u8"))
        let policy = HLSProxyRewritePolicy(endpoint: Self.endpoint, maximumBandwidth: 1, lockedVariant: 99)
        let rewritten = try HLSPlaylist(parsing: playlist.rewritten(base: Self.base, policy: policy))
        #expect(rewritten.variants.map(\.bandwidth) == [64_000])
        // The lock overrides the maximum for EXT-X-STREAM-INF variants only.
        #expect(rewritten.iFrameVariants.isEmpty)
    }

    @Test func injectedBandwidthReplacesBothFiguresWhereverTheyStand() throws {
        let policy = HLSProxyRewritePolicy(endpoint: Self.endpoint, bandwidthOverride: { _ in 777 })
        let output = try Self.rewrite("""
            #EXTM3U
            #EXT-X-STREAM-INF:AVERAGE-BANDWIDTH=5,CODECS="x",BANDWIDTH=9
            a.m3u8
            #EXT-X-I-FRAME-STREAM-INF:URI="i.m3u8",AVERAGE-BANDWIDTH=1,BANDWIDTH=2
            #EXT-X-I-FRAME-STREAM-INF:AVERAGE-BANDWIDTH=3,URI="j.m3u8"

            """, policy)
        #expect(output == """
            #EXTM3U
            #EXT-X-STREAM-INF:AVERAGE-BANDWIDTH=777,CODECS="x",BANDWIDTH=777
            \(Self.proxied("https://origin.example.com/path/to/a.m3u8"))
            #EXT-X-I-FRAME-STREAM-INF:URI="\(Self.proxied("https://origin.example.com/path/to/i.m3u8"))",AVERAGE-BANDWIDTH=777,BANDWIDTH=777
            #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=777,AVERAGE-BANDWIDTH=777,URI="\(Self.proxied("https://origin.example.com/path/to/j.m3u8"))"

            """)
    }

    /// Every multivariant playlist of the fixtures and the shared corpus, locked to each quality:
    /// one variant, no I-frame variant, and exactly the renditions of the groups it references.
    @Test(arguments: CorpusSelection.lockable)
    func everyLockedPlaylistListsOneVariantAndItsGroups(_ name: String) throws {
        let input = try CorpusTests.bytes(name)
        let playlist = try HLSPlaylist(parsing: input, options: CorpusTests.options)
        try #require(playlist.kind == .master, "\(name) is not a multivariant playlist")
        let isStrict = (try? HLSPlaylist(parsing: input, options: HLSParserOptions(mode: .strict, playlistURL: CorpusTests.options.playlistURL))) != nil
        for quality in [HLSQuality.lowest, .highest, .height(720), .bandwidth(1_000_000)] {
            // A playlist with a variant has one for every quality: the closest.
            let chosen = try #require(playlist.variant(for: quality), "\(name) \(quality)")
            var policy = HLSProxyRewritePolicy(endpoint: Self.endpoint)
            policy.lock(to: chosen)
            let output = playlist.rewritten(base: Self.base, policy: policy)
            let locked = try HLSPlaylist(parsing: output, options: CorpusTests.options)
            #expect(locked.variants.count == 1, "\(name) \(quality)")
            #expect(locked.iFrameVariants.isEmpty, "\(name) \(quality)")
            let variant = playlist.variants[chosen.index]
            #expect(locked.variants.first?.uri == Self.proxied(Self.base.resolve(variant.uri)), "\(name) \(quality)")
            let groups: Set<[String]> = Set([("AUDIO", variant.audio), ("VIDEO", variant.video),
                                             ("SUBTITLES", variant.subtitles), ("CLOSED-CAPTIONS", variant.closedCaptions)]
                .compactMap { type, group in group.map { [type, $0] } })
            let expected = playlist.renditions.filter { groups.contains([$0.type, $0.groupID]) }
            #expect(locked.renditions.map(\.name) == expected.map(\.name), "\(name) \(quality)")
            #expect(locked.renditions.map(\.groupID) == expected.map(\.groupID), "\(name) \(quality)")
            if isStrict {
                #expect(throws: Never.self, "\(name) \(quality)") {
                    try HLSPlaylist(parsing: output, options: HLSParserOptions(mode: .strict, playlistURL: CorpusTests.options.playlistURL))
                }
            }
        }
    }

    /// The lock property above is exercised on enough multivariant playlists.
    @Test func enoughPlaylistsAreLocked() {
        let (corpus, fixtures) = CorpusSelection.counts(CorpusSelection.lockable)
        #expect(fixtures >= CorpusSelection.Minimum.lockableFixtures, "\(fixtures) fixtures are multivariant playlists")
        if TestFiles.corpusIsPresent {
            #expect(corpus >= CorpusSelection.Minimum.lockableCorpus, "\(corpus) corpus playlists are multivariant playlists")
        }
    }
}
