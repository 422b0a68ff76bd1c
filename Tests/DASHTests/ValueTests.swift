import DASH
import Testing

/// The value types: URL resolution (RFC 3986's own examples), templates, durations, byte ranges.
@Suite struct ValueTests {
    /// RFC 3986 section 5.4, resolved against `http://a/b/c/d;p?q`.
    @Test(arguments: [
        ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"),
        ("/g", "http://a/g"), ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
        ("#s", "http://a/b/c/d;p?q#s"), ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"),
        (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"), ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"),
        ("./", "http://a/b/c/"), ("..", "http://a/b/"), ("../", "http://a/b/"), ("../g", "http://a/b/g"),
        ("../..", "http://a/"), ("../../", "http://a/"), ("../../g", "http://a/g"), ("../../../g", "http://a/g"),
        ("../../../../g", "http://a/g"), ("/./g", "http://a/g"), ("/../g", "http://a/g"), ("g.", "http://a/b/c/g."),
        (".g", "http://a/b/c/.g"), ("g..", "http://a/b/c/g.."), ("..g", "http://a/b/c/..g"), ("./../g", "http://a/b/g"),
        ("./g/.", "http://a/b/c/g/"), ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"),
        ("g;x=1/./y", "http://a/b/c/g;x=1/y"), ("g;x=1/../y", "http://a/b/c/y"), ("g?y/./x", "http://a/b/c/g?y/./x"),
        ("g?y/../x", "http://a/b/c/g?y/../x"), ("g#s/./x", "http://a/b/c/g#s/./x"), ("g#s/../x", "http://a/b/c/g#s/../x"),
        ("http:g", "http:g"),
    ])
    func resolutionFollowsRFC3986(_ reference: String, _ expected: String) throws {
        let base = try #require(DASHAbsoluteURL("http://a/b/c/d;p?q"))
        #expect(base.resolve(reference) == expected)
    }

    @Test func relativeStringsAreNotBaseURLs() {
        #expect(DASHAbsoluteURL("video/manifest.mpd") == nil)
        #expect(DASHAbsoluteURL("//host/x") == nil)
    }

    @Test(arguments: [
        ("seg-$Number%05d$.m4s", "seg-00042.m4s"), ("$RepresentationID$/$Time$.m4s", "v1/90000.m4s"),
        ("$Bandwidth$-$Number$", "800000-42"), ("a$$b$Number%03x$", "a$b02a"), ("$Time%010d$", "0000090000"),
        ("$Number%X$", "2A"), ("plain.mp4", "plain.mp4"),
    ])
    func templatesExpandEveryIdentifier(_ text: String, _ expected: String) throws {
        let template = try DASHURLTemplate(text)
        #expect(template.expanded(representationID: "v1", number: 42, time: 90_000, bandwidth: 800_000) == expected)
    }

    @Test(arguments: ["$Number", "$Nmber$", "$RepresentationID%05d$", "$Number%05q$", "$Number%0999d$", "$Time%0a5d$"])
    func malformedTemplatesAreRefused(_ text: String) {
        #expect(throws: DASHURLTemplate.SyntaxError.self) { try DASHURLTemplate(text) }
    }

    @Test func templateErrorsAreDiagnosticsWithPositions() throws {
        let text = """
            <MPD profiles="x" minBufferTime="PT1S"><Period><AdaptationSet>
            <SegmentTemplate media="$Nope$" initialization="init-$Number$.mp4"/>
            </AdaptationSet></Period></MPD>
            """
        let manifest = try DASHManifest(parsing: text)
        #expect(manifest.warnings.map(\.code) == [.template, .template])
        #expect(manifest.warnings.map(\.position.line) == [2, 2])
        #expect(manifest.warnings.map(\.position.column) == [18, 33])
        #expect(throws: DASHParseError(code: .ruleViolation, message: "", position: .whole)) {
            try DASHManifest(parsing: text, options: DASHParserOptions(mode: .strict))
        }
    }

    @Test(arguments: [
        ("PT4.0S", 4.0), ("PT1M30S", 90), ("P1DT2H", 93_600), ("PT0.040S", 0.04), ("-PT5S", -5), ("P1Y", 31_536_000),
        (" PT2S ", 2),
    ])
    func durationsAreReadInSeconds(_ text: String, _ seconds: Double) throws {
        #expect(try #require(DASHDuration(text)).seconds == seconds)
    }

    @Test(arguments: ["", "P", "PT", "4S", "PT4", "PT1.S", "PT.5S", "P1.5D", "PT1S2M", "P1DT", "PT1H1H"])
    func malformedDurationsAreNil(_ text: String) {
        #expect(DASHDuration(text) == nil)
    }

    @Test func byteRangesAreInclusiveAndOrdered() {
        #expect(DASHByteRange("0-819")?.length == 820)
        #expect(DASHByteRange("5-4") == nil)
        #expect(DASHByteRange("-4") == nil)
        #expect(DASHByteRange("1-") == nil)
        #expect(DASHByteRange("18446744073709551616-1") == nil)
        #expect(DASHByteRange(first: 0, last: .max)?.length == nil)
    }

    @Test func negativeRepeatRunsToTheNextTimeThenToThePeriodEnd() throws {
        let manifest = try Fixtures.manifest("handwritten/negative-repeat.mpd")
        let representation = manifest.representations[1]
        let requests = Array(try representation.segmentRequests(manifestURL: Fixtures.manifestURL))
        // 900000..1800000 by 180000 (5), two of 360000, then 180000 up to 30 s after the offset (6).
        #expect(requests.count == 5 + 2 + 6)
        #expect(requests.first?.url == "https://origin.example/video/high_000000900000.m4s")
        #expect(requests.first?.number == 10)
        #expect(requests.map(\.startSeconds).prefix(7) == [0, 2, 4, 6, 8, 10, 14])
        #expect(requests.last?.startSeconds == 28)
        let window = try representation.segmentRequests(manifestURL: Fixtures.manifestURL, in: DASHTimeRange(start: 9, end: 15))
        #expect(window.map(\.startSeconds) == [8, 10, 14])
    }

    @Test func openEndedTimelineOfALivePeriodNeedsARangeEnd() throws {
        let text = """
            <MPD profiles="x" minBufferTime="PT1S" type="dynamic" availabilityStartTime="2026-01-01T00:00:00Z">
            <Period start="PT0S"><AdaptationSet><Representation id="a" bandwidth="1"><SegmentTemplate media="$Time$">
            <SegmentTimeline><S t="0" d="2" r="-1"/></SegmentTimeline></SegmentTemplate></Representation></AdaptationSet>
            </Period></MPD>
            """
        let representation = try DASHManifest(parsing: text, options: DASHParserOptions(mode: .strict)).representations[0]
        let error = #expect(throws: DASHAddressingError.self) {
            try representation.segmentRequests(manifestURL: Fixtures.manifestURL)
        }
        #expect(error?.code == .unbounded)
        #expect(error?.position.line == 3)
        #expect(try representation.segmentRequests(manifestURL: Fixtures.manifestURL, in: DASHTimeRange(start: 0, end: 10)).count == 5)
    }

    @Test func ruleViolationsAreWarningsInLenientModeAndErrorsInStrict() throws {
        let text = """
            <MPD type="live"><Period><AdaptationSet><Representation bandwidth="x"><SegmentTemplate media="$Number$">
            <SegmentTimeline><S t="10" d="5"/><S t="12" d="5" r="-3"/><S/></SegmentTimeline></SegmentTemplate>
            <SegmentBase/></Representation></AdaptationSet></Period></MPD>
            """
        let manifest = try DASHManifest(parsing: text)
        // MPD@profiles, @minBufferTime, @type; Representation@id, @bandwidth, two kinds of segment
        // information; S@t going back, S@r below -1, S without @d.
        #expect(manifest.warnings.map(\.code) == [.missingAttribute, .missingAttribute, .value, .missingAttribute, .value,
                                                  .segmentInformation, .timeline, .timeline, .missingAttribute])
        let strict = #expect(throws: DASHParseError.self) {
            try DASHManifest(parsing: text, options: DASHParserOptions(mode: .strict))
        }
        #expect(strict?.code == .ruleViolation)
        #expect(strict?.diagnostic == manifest.warnings.first)
    }
}
