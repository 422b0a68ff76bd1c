import DASH
import Testing

/// Hand-written hostile MPDs: each is refused with its own error code and a position, quickly,
/// and nothing is expanded, fetched or allocated out of proportion.
@Suite struct HostileInputTests {
    @Test(arguments: [
        ("hostile/billion-laughs.mpd", DASHParseError.Code.doctype, 2),
        ("hostile/external-entity.mpd", .doctype, 2),
        ("hostile/undeclared-entity-loop.mpd", .entity, 2),
        ("hostile/latin1-bytes.mpd", .encoding, 2),
        ("hostile/declared-latin1.mpd", .encoding, 1),
        ("hostile/utf16.mpd", .encoding, 1),
    ])
    func hostileFixtureIsRefusedWithItsCodeAndLine(_ name: String, _ code: DASHParseError.Code, _ line: Int) throws {
        let error = #expect(throws: DASHParseError.self) { try Fixtures.manifest(name) }
        #expect(error?.code == code)
        #expect(error?.line == line)
    }

    @Test func deepNestingStopsAtTheDepthLimitWithThePosition() throws {
        let depth = 100_000
        let text = "<MPD xmlns=\"urn:mpeg:dash:schema:mpd:2011\" profiles=\"x\" minBufferTime=\"PT1S\">\n"
            + String(repeating: "<x>", count: depth) + String(repeating: "</x>", count: depth) + "</MPD>"
        let error = #expect(throws: DASHParseError.self) { try DASHManifest(parsing: text) }
        #expect(error?.code == .limitExceeded)
        #expect(error?.line == 2)
        // The 64th element opens at depth 64: 63 `<x>` of 3 bytes before it.
        #expect(error?.column == 1 + 63 * 3)
    }

    @Test func nestingWithinTheLimitParses() throws {
        var limits = DASHParserLimits()
        limits.maximumDepth = 10
        let text = "<MPD profiles=\"x\" minBufferTime=\"PT1S\">" + String(repeating: "<x>", count: 9)
            + String(repeating: "</x>", count: 9) + "</MPD>"
        #expect(throws: Never.self) { try DASHManifest(parsing: text, options: DASHParserOptions(limits: limits)) }
        limits.maximumDepth = 9
        #expect(throws: DASHParseError(code: .limitExceeded, message: "", position: .whole)) {
            try DASHManifest(parsing: text, options: DASHParserOptions(limits: limits))
        }
    }

    @Test func hugeRepeatParsesButAddressingStopsAtTheLimitWithTheSPosition() throws {
        let manifest = try Fixtures.manifest("hostile/huge-repeat.mpd")
        #expect(manifest.formatted() == (try Fixtures.bytes("hostile/huge-repeat.mpd")))
        let representation = try #require(manifest.representations.first)
        let error = #expect(throws: DASHAddressingError.self) {
            try representation.segmentRequests(manifestURL: Fixtures.manifestURL)
        }
        #expect(error?.code == .limitExceeded)
        #expect(error?.position.line == 9)
        #expect(error?.position.column == 13)
    }

    @Test func hugeRepeatListsANarrowRangeLazily() throws {
        let representation = try #require(try Fixtures.manifest("hostile/huge-repeat.mpd").representations.first)
        let requests = try representation.segmentRequests(manifestURL: Fixtures.manifestURL,
                                                          in: DASHTimeRange(start: 1_000_000, end: 1_000_003))
        #expect(requests.count == 3)
        #expect(Array(requests).map(\.number) == [1_000_001, 1_000_002, 1_000_003])
    }

    @Test func repeatOverflowingSixtyFourBitsIsAnError() throws {
        let text = """
            <MPD profiles="x" minBufferTime="PT1S"><Period><AdaptationSet><Representation id="a" bandwidth="1">
            <SegmentTemplate media="$Time$"><SegmentTimeline><S t="18446744073709551000" d="1000" r="5"/></SegmentTimeline>
            </SegmentTemplate></Representation></AdaptationSet></Period></MPD>
            """
        let manifest = try DASHManifest(parsing: text)
        #expect(manifest.warnings.map(\.code) == [.timeline])
        let error = #expect(throws: DASHAddressingError.self) {
            try manifest.representations[0].segmentRequests(manifestURL: Fixtures.manifestURL)
        }
        #expect(error?.code == .overflow)
        #expect(error?.position.line == 2)
    }

    @Test func inputAboveTheSizeLimitIsRefusedBeforeParsing() {
        var limits = DASHParserLimits()
        limits.maximumInputBytes = 16
        #expect(throws: DASHParseError(code: .limitExceeded, message: "", position: .whole)) {
            try DASHManifest(parsing: "<MPD profiles=\"x\" minBufferTime=\"PT1S\"/>", options: DASHParserOptions(limits: limits))
        }
    }

    @Test(arguments: [
        ("maximumAttributesPerElement", "<MPD a=\"1\" b=\"2\" c=\"3\"/>"),
        ("maximumNameBytes", "<MPD aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa=\"1\"/>"),
        ("maximumValueBytes", "<MPD a=\"\(String(repeating: "v", count: 100))\"/>"),
        ("maximumValueBytes", "<MPD><BaseURL>\(String(repeating: "v", count: 100))</BaseURL></MPD>"),
        ("maximumValueBytes", "<MPD><!--\(String(repeating: "v", count: 100))--></MPD>"),
        ("maximumElements", "<MPD><a/><b/><c/></MPD>"),
    ])
    func eachLimitIsEnforced(_ limit: String, _ text: String) {
        var limits = DASHParserLimits()
        switch limit {
        case "maximumAttributesPerElement": limits.maximumAttributesPerElement = 2
        case "maximumNameBytes": limits.maximumNameBytes = 32
        case "maximumValueBytes": limits.maximumValueBytes = 64
        default: limits.maximumElements = 3
        }
        #expect(throws: DASHParseError(code: .limitExceeded, message: "", position: .whole)) {
            try DASHManifest(parsing: text, options: DASHParserOptions(limits: limits))
        }
        #expect(throws: Never.self) { try DASHManifest(parsing: text) }
    }
}
