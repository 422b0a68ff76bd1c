import HLS
import Testing

/// Properties that must hold for every playlist of the shared real-world corpus and of the
/// committed fixtures. The corpus is not in the repository; these tests skip without it.
@Suite struct CorpusTests {
    static let base = HLSBaseURL("https://origin.example.com/path/to/index.m3u8?token=abc")!
    static let policy = HLSProxyRewritePolicy(endpoint: HLSProxyEndpoint(port: 8080))
    static let options = HLSParserOptions(playlistURL: "https://origin.example.com/path/to/index.m3u8?token=abc")

    static var allPlaylists: [String] {
        TestFiles.corpusPlaylists.map { "corpus/\($0)" } + TestFiles.fixturePlaylists.map { "fixtures/\($0)" }
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        if name.hasPrefix("corpus/") { return try TestFiles.corpusFile(String(name.dropFirst(7))) }
        return try TestFiles.fixture(String(name.dropFirst(9)))
    }

    @Test(.enabled(if: TestFiles.corpusIsPresent, "shared corpus not found at ../shared/corpus/hls"))
    func corpusHasItsTwoHundredPlaylists() {
        #expect(TestFiles.corpusPlaylists.count >= 200)
    }

    @Test(arguments: allPlaylists)
    func formattingAnUntouchedPlaylistGivesBackItsBytes(_ name: String) throws {
        let input = try Self.bytes(name)
        guard let playlist = try? HLSPlaylist(parsing: input, options: Self.options) else { return }
        #expect(playlist.formatted() == input)
    }

    @Test(arguments: allPlaylists)
    func canonicalFormParsesToTheSameModel(_ name: String) throws {
        guard let playlist = try? HLSPlaylist(parsing: try Self.bytes(name), options: Self.options) else { return }
        let canonical = playlist.canonicalFormatted()
        let reparsed = try HLSPlaylist(parsing: canonical, options: Self.options)
        #expect(reparsed == playlist)
        #expect(reparsed.canonicalFormatted() == canonical)
    }

    @Test(arguments: allPlaylists)
    func rewrittenPlaylistKeepsItsStructureAndEveryOtherByte(_ name: String) throws {
        let input = try Self.bytes(name)
        guard let playlist = try? HLSPlaylist(parsing: input, options: Self.options) else { return }
        let rewritten = playlist.rewritten(base: Self.base, policy: Self.policy)
        let reparsed = try HLSPlaylist(parsing: rewritten, options: Self.options)
        #expect(reparsed.segments.count == playlist.segments.count)
        #expect(reparsed.segments.map(\.duration) == playlist.segments.map(\.duration))
        #expect(reparsed.variants.count == playlist.variants.count)
        #expect(reparsed.comments == playlist.comments)
        #expect(reparsed.unknownTags == playlist.unknownTags)
        for segment in reparsed.segments where !segment.uri.hasPrefix("http://127.0.0.1:8080/proxy?url=") {
            // Only URIs that do not resolve to http(s), and none of the corpus's segments, stay.
            Issue.record("segment URI not proxied: \(segment.uri)")
        }
    }

    /// The corpus marks files that kuu's strict mode accepts or rejects; strict mode here agrees,
    /// except where the RFC says otherwise (EXT-X-PART without EXT-X-PART-INF, see Docs/HLS.md).
    @Test(.enabled(if: TestFiles.corpusIsPresent, "shared corpus not found at ../shared/corpus/hls"))
    func strictModeAgreesWithTheKuuSpecVerdicts() throws {
        var checked = 0
        for (name, label) in TestFiles.corpusLabels where name.hasPrefix("kuuspec__") {
            let expectsReject = label.note.contains("expects REJECT")
            guard expectsReject || label.note.contains("expects accept") else { continue }
            if name == "kuuspec__EXT-X-TAG-02-2.m3u8" { continue }
            let strict = try? HLSPlaylist(parsing: try TestFiles.corpusFile(name), options: HLSParserOptions(mode: .strict))
            #expect((strict == nil) == expectsReject, "\(name): strict mode should \(expectsReject ? "reject" : "accept")")
            checked += 1
        }
        #expect(checked >= 20)
    }

    @Test(.enabled(if: TestFiles.corpusIsPresent, "shared corpus not found at ../shared/corpus/hls"))
    func lenientModeParsesEveryPlaylistThatIsAPlaylist() throws {
        let notPlaylists: Set = ["gst__invalid_playlist.m3u8", "videojs__empty.m3u8",
                                 "hlsjs__manifest-with-broken-syntax-returns-empty-array.m3u8"]
        for name in TestFiles.corpusPlaylists {
            let result = Result { try HLSPlaylist(parsing: try TestFiles.corpusFile(name)) }
            if notPlaylists.contains(name) {
                #expect(throws: HLSParseError(code: .notAPlaylist, message: "", line: 0), "\(name)") { try result.get() }
            } else {
                #expect(throws: Never.self, "\(name)") { try result.get() }
            }
        }
    }
}
