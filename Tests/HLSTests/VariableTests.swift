import HLS
import Testing

/// EXT-X-DEFINE: NAME/VALUE, IMPORT and QUERYPARAM, substituted in URI lines and quoted strings.
@Suite struct VariableTests {
    static let options = HLSParserOptions(playlistURL: "https://origin.example.com/show/index.m3u8?token=s%20e%2Fcret&x=1",
                                          importedVariables: ["session": "abc"])

    @Test func substitutesDefinedImportedAndQueryVariables() throws {
        let playlist = try HLSPlaylist(parsing: try TestFiles.fixture("handwritten/define-media.m3u8"), options: Self.options)
        #expect(playlist.warnings.isEmpty)
        #expect(playlist.segments.map(\.uri) == ["https://cdn.example.com/show/1/seg1.m4s?t=s e/cret&s=abc",
                                                 "https://cdn.example.com/show/1/seg2.m4s?t=s e/cret&s=abc"])
        #expect(playlist.segments.first?.map?.uri == "https://cdn.example.com/show/1/init.mp4?t=s e/cret")
        #expect(playlist.variables.map(\.name) == ["cdn", "path", "token", "session"])
    }

    @Test func substitutesInQuotedAttributesOfAMultivariantPlaylist() throws {
        let playlist = try HLSPlaylist.parsed("""
            #EXTM3U
            #EXT-X-VERSION:11
            #EXT-X-DEFINE:NAME="codec",VALUE="avc1.64001f"
            #EXT-X-DEFINE:NAME="host",VALUE="https://cdn.example.com"
            #EXT-X-STREAM-INF:BANDWIDTH=1500000,CODECS="{$codec},mp4a.40.2"
            {$host}/v/720.m3u8
            """)
        #expect(playlist.variants.first?.codecs == "avc1.64001f,mp4a.40.2")
        #expect(playlist.variants.first?.uri == "https://cdn.example.com/v/720.m3u8")
        #expect(playlist.variants.first?.attributes.value(named: "CODECS") == "{$codec},mp4a.40.2")
    }

    @Test func undefinedAndDuplicateVariablesAreReportedAndLeftAsWritten() throws {
        let playlist = try HLSPlaylist(parsing: try TestFiles.fixture("handwritten/malformed-define.m3u8"))
        #expect(playlist.segments.first?.uri == "{$nope}/x/{$loop}{$loop}.ts")
        let variableWarnings = playlist.warnings.filter { $0.code == .variable }
        #expect(variableWarnings.map(\.line) == [5, 6, 7, 9])
    }

    @Test func aVariableReferencedBeforeItsDefinitionIsNotSubstituted() throws {
        let playlist = try HLSPlaylist.parsed("""
            #EXTM3U
            #EXT-X-VERSION:8
            #EXT-X-TARGETDURATION:6
            #EXTINF:6,
            {$late}.ts
            #EXT-X-DEFINE:NAME="late",VALUE="x"
            #EXTINF:6,
            {$late}.ts
            """)
        #expect(playlist.segments.map(\.uri) == ["{$late}.ts", "x.ts"])
    }

    @Test func missingImportsAndQueryParametersAreReported() throws {
        let playlist = try HLSPlaylist.parsed("""
            #EXTM3U
            #EXT-X-VERSION:11
            #EXT-X-TARGETDURATION:6
            #EXT-X-DEFINE:IMPORT="nothing"
            #EXT-X-DEFINE:QUERYPARAM="absent"
            """, options: Self.options)
        #expect(playlist.warnings.map(\.line) == [4, 5])
        #expect(playlist.variables.isEmpty)
    }

    @Test func exponentialDefinitionsHitTheSubstitutionLimit() throws {
        var text = "#EXTM3U\n#EXT-X-VERSION:8\n#EXT-X-TARGETDURATION:6\n#EXT-X-DEFINE:NAME=\"v0\",VALUE=\"xxxxxxxx\"\n"
        for level in 1...40 {
            text += "#EXT-X-DEFINE:NAME=\"v\(level)\",VALUE=\"{$v\(level - 1)}{$v\(level - 1)}\"\n"
        }
        var options = HLSParserOptions()
        options.limits.maximumSubstitutionBytes = 1 << 20
        #expect(throws: HLSParseError(code: .limitExceeded, message: "", line: 0)) {
            try HLSPlaylist.parsed(text, options: options)
        }
    }

    @Test func manyReferencesToALargeValueHitTheSubstitutionLimit() throws {
        var text = "#EXTM3U\n#EXT-X-VERSION:8\n#EXT-X-TARGETDURATION:6\n#EXT-X-DEFINE:NAME=\"big\",VALUE=\"\(String(repeating: "a", count: 1000))\"\n"
        text += String(repeating: "#EXTINF:6,\n{$big}{$big}{$big}{$big}\n", count: 100)
        var options = HLSParserOptions()
        options.limits.maximumSubstitutionBytes = 100_000
        #expect(throws: HLSParseError(code: .limitExceeded, message: "", line: 0)) {
            try HLSPlaylist.parsed(text, options: options)
        }
    }
}
