import HLS
import Testing

/// Properties that must hold for every playlist of the shared real-world corpus and of the
/// committed fixtures. The corpus is not in the repository: without it, its tests are reported
/// as skipped (with the reason); with it, every file is checked. A file that does not parse
/// fails these tests unless it is one of the few listed as not being a playlist at all.
@Suite struct CorpusTests {
    static let base = HLSBaseURL("https://origin.example.com/path/to/index.m3u8?token=abc")!
    static let policy = HLSProxyRewritePolicy(endpoint: HLSProxyEndpoint(port: 8080))
    static let options = HLSParserOptions(playlistURL: "https://origin.example.com/path/to/index.m3u8?token=abc")
    static let corpusMissing = "shared corpus not found at ../shared/corpus/hls"

    /// Files that are not playlists (empty, or text without `#EXTM3U` and HLS tags): both modes
    /// must refuse them with `notAPlaylist`.
    static let notPlaylists: Set = ["corpus/gst__invalid_playlist.m3u8", "corpus/videojs__empty.m3u8",
                                    "corpus/hlsjs__manifest-with-broken-syntax-returns-empty-array.m3u8"]

    static var corpusPlaylists: [String] { TestFiles.corpusPlaylists.map { "corpus/\($0)" } }
    static var fixturePlaylists: [String] { TestFiles.fixturePlaylists.map { "fixtures/\($0)" } }
    /// Both, for tests that run over every playlist there is (the corpus ones only where it is).
    static var allPlaylists: [String] { corpusPlaylists + fixturePlaylists }

    static func bytes(_ name: String) throws -> [UInt8] {
        if name.hasPrefix("corpus/") { return try TestFiles.corpusFile(String(name.dropFirst(7))) }
        return try TestFiles.fixture(String(name.dropFirst(9)))
    }

    /// The playlist in `name`, parsed leniently; nil (after checking that it is refused as not a
    /// playlist) for the files listed in `notPlaylists`. Any other parse error fails the test.
    static func playlist(_ name: String) throws -> HLSPlaylist? {
        let input = try bytes(name)
        if notPlaylists.contains(name) {
            #expect(throws: HLSParseError(code: .notAPlaylist, message: "", line: 0), "\(name)") {
                try HLSPlaylist(parsing: input, options: options)
            }
            return nil
        }
        return try HLSPlaylist(parsing: input, options: options)
    }

    @Test(.enabled(if: TestFiles.corpusIsPresent, "\(corpusMissing)"))
    func corpusHasItsTwoHundredPlaylists() {
        #expect(TestFiles.corpusPlaylists.count >= 200)
    }

    @Test func fixturesAreThere() {
        #expect(Self.fixturePlaylists.count >= 20)
    }

    @Test(.enabled(if: TestFiles.corpusIsPresent, "\(corpusMissing)"), arguments: corpusPlaylists)
    func corpusPlaylistFormatsBackToItsBytes(_ name: String) throws {
        try formattingAnUntouchedPlaylistGivesBackItsBytes(name)
    }

    @Test(arguments: fixturePlaylists)
    func fixtureFormatsBackToItsBytes(_ name: String) throws {
        try formattingAnUntouchedPlaylistGivesBackItsBytes(name)
    }

    @Test(.enabled(if: TestFiles.corpusIsPresent, "\(corpusMissing)"), arguments: corpusPlaylists)
    func corpusPlaylistCanonicalFormParsesToTheSameModel(_ name: String) throws {
        try canonicalFormParsesToTheSameModel(name)
    }

    @Test(arguments: fixturePlaylists)
    func fixtureCanonicalFormParsesToTheSameModel(_ name: String) throws {
        try canonicalFormParsesToTheSameModel(name)
    }

    @Test(.enabled(if: TestFiles.corpusIsPresent, "\(corpusMissing)"), arguments: corpusPlaylists)
    func corpusPlaylistRewriteKeepsItsStructure(_ name: String) throws {
        try rewrittenPlaylistKeepsItsStructureAndEveryOtherByte(name)
    }

    @Test(arguments: fixturePlaylists)
    func fixtureRewriteKeepsItsStructure(_ name: String) throws {
        try rewrittenPlaylistKeepsItsStructureAndEveryOtherByte(name)
    }

    private func formattingAnUntouchedPlaylistGivesBackItsBytes(_ name: String) throws {
        guard let playlist = try Self.playlist(name) else { return }
        #expect(playlist.formatted() == (try Self.bytes(name)))
    }

    private func canonicalFormParsesToTheSameModel(_ name: String) throws {
        guard let playlist = try Self.playlist(name) else { return }
        let canonical = playlist.canonicalFormatted()
        let reparsed = try HLSPlaylist(parsing: canonical, options: Self.options)
        #expect(reparsed == playlist)
        #expect(reparsed.canonicalFormatted() == canonical)
    }

    private func rewrittenPlaylistKeepsItsStructureAndEveryOtherByte(_ name: String) throws {
        guard let playlist = try Self.playlist(name) else { return }
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
    @Test(.enabled(if: TestFiles.corpusIsPresent, "\(corpusMissing)"))
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

    /// Where strict mode accepts a file, lenient mode finds no warning and the same model.
    @Test(.enabled(if: TestFiles.corpusIsPresent, "\(corpusMissing)"))
    func strictAcceptanceMeansNoWarningsAndTheSameModel() throws {
        var accepted = 0
        for name in Self.corpusPlaylists + Self.fixturePlaylists {
            let input = try Self.bytes(name)
            guard let strict = try? HLSPlaylist(parsing: input, options: HLSParserOptions(mode: .strict)) else {
                continue
            }
            accepted += 1
            let lenient = try HLSPlaylist(parsing: input)
            #expect(lenient.warnings.isEmpty, "\(name)")
            #expect(lenient == strict, "\(name)")
        }
        #expect(accepted >= 50)
    }
}
