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
        #expect(rewritten.variants.first?.averageBandwidth == 2_200_000)
        #expect(rewritten.variants.first?.uri == Self.proxied("https://origin.example.com/path/to/video/720p/index.m3u8"))
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
}
