import Foundation
import HLS
import Testing

/// The inputs the HLS fuzz targets once crashed on, kept in `Fuzz/<target>/crashes/`: each still
/// holds its target's property, and each has a test of the behaviour its fix gave.
@Suite struct FuzzCrashTests {
    static let options = HLSParserOptions(playlistURL: "https://origin.example/index.m3u8?token=t",
                                          importedVariables: ["host": "https://cdn.example"])

    /// Every file in the `crashes/` folder of an HLS target.
    static var crashInputs: [String] {
        let fuzz = TestFiles.repositoryRoot.appendingPathComponent("Fuzz")
        let targets = (try? FileManager.default.contentsOfDirectory(atPath: fuzz.path)) ?? []
        return targets.filter { $0.hasPrefix("FuzzHLS") }.sorted().flatMap { target -> [String] in
            let names = (try? FileManager.default.contentsOfDirectory(
                atPath: fuzz.appendingPathComponent("\(target)/crashes").path)) ?? []
            return names.sorted().map { "\(target)/crashes/\($0)" }
        }
    }

    static func input(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: TestFiles.repositoryRoot.appendingPathComponent("Fuzz/\(path)")))
    }

    @Test func theKeptCrashInputsAreFound() {
        #expect(Self.crashInputs.contains("FuzzHLSRoundTrip/crashes/headerless-extinf-fast-path"))
        #expect(Self.crashInputs.contains("FuzzHLSRoundTrip/crashes/extinf-space-after-colon"))
        #expect(Self.crashInputs.contains("FuzzHLSSession/crashes/implied-byterange-offset-past-head"))
        #expect(Self.crashInputs.contains("FuzzHLSSession/crashes/part-implied-offset-past-head"))
        #expect(Self.crashInputs.contains("FuzzHLSSession/crashes/literal-variable-reference-in-a-value"))
    }

    /// FuzzHLSRoundTrip's property: lossless formatting gives the bytes back, and the canonical
    /// form parses to the same model and is a fixed point.
    @Test(arguments: crashInputs)
    func crashInputRoundTrips(_ path: String) throws {
        let bytes = try Self.input(path)
        let playlist = try HLSPlaylist(parsing: bytes, options: Self.options)
        #expect(playlist.formatted() == bytes)
        let canonical = playlist.canonicalFormatted()
        let reparsed = try HLSPlaylist(parsing: canonical, options: Self.options)
        #expect(reparsed == playlist)
        #expect(reparsed.canonicalFormatted() == canonical)
    }

    /// A playlist without `#EXTM3U` whose first known tag is `#EXTINF` is a headerless playlist,
    /// as with any other tag: it parses (with the header warning), in its canonical form too.
    @Test func headerlessPlaylistStartingWithExtinfParses() throws {
        let text = "#EXTINF:6.000,\nseg1.ts\n#EXT-X-TARGETDURATION:6\n"
        let playlist = try HLSPlaylist.parsed(text)
        #expect(playlist.segments.map(\.uri) == ["seg1.ts"])
        #expect(playlist.warnings.first?.code == .header)
        #expect(playlist.warnings.first?.line == 1)
        let reparsed = try HLSPlaylist(parsing: playlist.canonicalFormatted())
        #expect(reparsed == playlist)
        #expect(throws: HLSParseError(code: .ruleViolation, message: "", line: 0)) {
            try HLSPlaylist.parsed(text, options: HLSParserOptions(mode: .strict))
        }
    }

    /// The kept input itself: a BOM, a mangled header, CRLF lines, and a bare `#EXTINF` as the
    /// first tag the parser knows, so the next line is that segment's URI.
    @Test func headerlessExtinfCrashInputParsesAsAMediaPlaylist() throws {
        let playlist = try HLSPlaylist(parsing: try Self.input("FuzzHLSRoundTrip/crashes/headerless-extinf-fast-path"),
                                       options: Self.options)
        #expect(playlist.kind == .media)
        #expect(playlist.segments.map(\.uri) == [":6.000,"])
        #expect(playlist.warnings.contains { $0.code == .header })
    }

    /// FuzzHLSSession's input: sub-ranges of one file, the third with an implied offset. Served
    /// head-only, the third segment goes to the origin while the second went through the proxy,
    /// so its offset is written out: an implied one must follow a sub-range of the same URI.
    @Test(arguments: [0, 1, 2, 3, 4])
    func impliedByteRangeOffsetIsWrittenWhereTheRouteChanges(head: Int) throws {
        let (playlist, text, reparsed) = try Self.servedHeadOnly("implied-byterange-offset-past-head", head: head)
        #expect(reparsed.segments.map(\.byteRange) == playlist.segments.map(\.byteRange))
        // Only the segment where the route changes gets an offset it did not have.
        #expect(text.contains("#EXT-X-BYTERANGE:69864@834433\n") == (head == 2))
        #expect(text.contains("#EXT-X-BYTERANGE:69864\n") == (head != 2))
    }

    /// FuzzHLSSession's input: an LL-HLS playlist whose parts are sub-ranges of one file, the
    /// second and third with implied offsets; the third belongs to the segment being produced.
    /// Served head-only with a head of one segment, the third part goes to the origin while the
    /// second went through the proxy, so its offset is written out, as a segment's is above.
    @Test(arguments: [0, 1, 2, 3])
    func impliedPartOffsetIsWrittenWhereTheRouteChanges(head: Int) throws {
        let (playlist, text, reparsed) = try Self.servedHeadOnly("part-implied-offset-past-head", head: head)
        #expect(reparsed.parts.map(\.byteRange) == playlist.parts.map(\.byteRange))
        #expect(reparsed.parts.map(\.segmentIndex) == [0, 0, 1])
        #expect(text.contains("BYTERANGE=\"2000@4720\"") == (head == 1))
        #expect(text.components(separatedBy: "BYTERANGE=\"2000\"").count - 1 == (head == 1 ? 1 : 2))
    }

    /// FuzzHLSSession's input: a variable whose value is, literally, a variable reference
    /// (`VALUE="{$host}"`: no substitution happens inside EXT-X-DEFINE), used in a segment URI.
    /// Past the head the segment's URI is written resolved, substituted, so that `{$host}` would
    /// have become a reference to a variable the playlist never defines: `{` is written encoded.
    @Test(arguments: [0, 1, 2])
    func aLiteralVariableReferenceStaysLiteral(head: Int) throws {
        let (playlist, _, reparsed) = try Self.servedHeadOnly("literal-variable-reference-in-a-value", head: head)
        #expect(playlist.segments.map(\.uri) == ["{$host}.ts"])
        let expected = head == 0 ? "https://origin.example/a/%7B$host}.ts"
            : "http://127.0.0.1:8080/proxy?url=https%3A%2F%2Forigin.example%2Fa%2F%7B%24host%7D.ts"
        #expect(reparsed.segments.map(\.uri) == [expected])
    }

    /// A kept FuzzHLSSession input (parsed strictly, as the target's property asks), served
    /// head-only with a head of `head` segments, and the output parsed strictly again.
    static func servedHeadOnly(_ name: String, head: Int) throws -> (input: HLSPlaylist, output: String, reparsed: HLSPlaylist) {
        let strict = HLSParserOptions(mode: .strict, importedVariables: ["host": "https://cdn.example"])
        let playlist = try HLSPlaylist(parsing: try input("FuzzHLSSession/crashes/\(name)"), options: strict)
        let base = try #require(HLSBaseURL("https://origin.example/a/index.m3u8"))
        let policy = HLSProxyRewritePolicy(endpoint: HLSProxyEndpoint(port: 8080), headSegmentCount: head)
        let rewritten = playlist.rewritten(base: base, policy: policy)
        return (playlist, String(decoding: rewritten, as: UTF8.self), try HLSPlaylist(parsing: rewritten, options: strict))
    }
}
