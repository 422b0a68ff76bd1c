import HLS
import Testing

/// Segment start times and the segment a request is for.
@Suite struct TimelineTests {
    /// Durations 4, 0, 2.5, 6.006: boundaries at 0, 4, 4, 6.5, 12.506.
    static let playlist = try! HLSPlaylist.parsed("""
        #EXTM3U
        #EXT-X-VERSION:4
        #EXT-X-TARGETDURATION:6
        #EXTINF:4,
        a.ts
        #EXTINF:0,
        b.ts
        #EXTINF:2.5,
        #EXT-X-BYTERANGE:1000@0
        c.mp4
        #EXTINF:6.006,
        #EXT-X-BYTERANGE:2000
        c.mp4
        #EXT-X-ENDLIST
        """)
    static let timeline = HLSTimeline(playlist)

    @Test func startTimesAreTheSumsOfTheDurationsBefore() {
        #expect(Self.timeline.count == 4)
        #expect((0...4).map(Self.timeline.startTime(ofSegment:)) == [0, 4, 4, 6.5, 12.506])
        #expect((0..<4).map(Self.timeline.duration(ofSegment:)) == [4, 0, 2.5, 6.006])
        #expect(Self.timeline.totalDuration == 12.506)
        #expect(Self.timeline.duration(of: 1..<4) == 8.506)
    }

    @Test func durationsAddUpExactly() throws {
        let text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n" + String(repeating: "#EXTINF:6.006,\ns.ts\n", count: 1001)
        let timeline = HLSTimeline(try HLSPlaylist.parsed(text))
        #expect(timeline.startTime(ofSegment: 1000) == 6006)
        #expect(timeline.startTime(ofSegment: 3) == 18.018)
        #expect(timeline.totalDuration == 6012.006)
    }

    @Test(arguments: [
        (0.0, 0), (3.999, 0),
        // The zero-length segment is never the one playing: segment 2 starts at the same time.
        (4.0, 2), (6.4999, 2), (6.5, 3), (12.5, 3),
    ] as [(Double, Int)])
    func findsTheSegmentPlayingAtATime(_ time: Double, _ expected: Int) {
        #expect(Self.timeline.segment(at: time) == expected)
    }

    @Test(arguments: [-0.001, 12.506, 1e300, .infinity, -.infinity, .nan])
    func noSegmentPlaysOutsideThePlaylist(_ time: Double) {
        #expect(Self.timeline.segment(at: time) == nil)
    }

    @Test(arguments: [
        (0, 4.0, 0..<1), (0, 4.5, 0..<3), (0, 0.001, 0..<1), (1, 2.5, 1..<3), (1, 2.4, 1..<3),
        (2, 100, 2..<4), (2, .infinity, 2..<4), (0, 0, 0..<0), (0, -1, 0..<0), (0, .nan, 0..<0),
        (4, 10, 4..<4), (3, 6.006, 3..<4), (3, 6.0061, 3..<4),
    ] as [(Int, Double, Range<Int>)])
    func aWindowOfSecondsIsTheFewestSegmentsThatFillIt(_ index: Int, _ seconds: Double, _ expected: Range<Int>) {
        #expect(Self.timeline.segments(from: index, covering: seconds) == expected)
    }

    @Test func hostileDurationsNeitherTrapNorWrap() throws {
        let playlist = try HLSPlaylist.parsed("""
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXTINF:99999999999999999999999,
            a.ts
            #EXTINF:-5,
            b.ts
            #EXTINF:1.0000000009,
            c.ts
            #EXTINF:x,
            d.ts
            """)
        let timeline = HLSTimeline(playlist)
        #expect(timeline.count == 4)
        #expect(timeline.duration(ofSegment: 1) == 0)
        #expect(timeline.startTime(ofSegment: 2) == timeline.startTime(ofSegment: 4))
        #expect(timeline.totalDuration == 18_446_744_073.709_552)
        let fine = HLSTimeline(try HLSPlaylist.parsed("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1.0000000009,\nc.ts\n"))
        #expect(fine.totalDuration == 1)
        #expect(HLSTimeline(try HLSPlaylist(parsing: TestFiles.fixture("handwritten/master-quality.m3u8"))).count == 0)
    }

    // MARK: - Locator

    static let base = HLSBaseURL("https://origin.example.com/v/index.m3u8")!

    @Test(arguments: [
        ("https://origin.example.com/v/a.ts", nil, nil, 0),
        ("https://origin.example.com/v/b.ts", nil, nil, 1),
        ("https://origin.example.com/v/c.mp4", nil, nil, 2),
        ("https://origin.example.com/v/c.mp4", 0, nil, 2),
        ("https://origin.example.com/v/c.mp4", 999, nil, 2),
        ("https://origin.example.com/v/c.mp4", 1000, nil, 3),
        ("https://origin.example.com/v/c.mp4", 2999, nil, 3),
        ("https://origin.example.com/v/a.ts", 123_456, nil, 0),
    ] as [(String, UInt64?, Int?, Int)])
    func findsTheSegmentOfARequest(_ uri: String, _ offset: UInt64?, _ previous: Int?, _ expected: Int) {
        let locator = HLSSegmentLocator(Self.playlist, base: Self.base)
        #expect(locator.segmentIndex(for: uri, byteOffset: offset, after: previous) == expected)
    }

    @Test func aRequestNoSegmentHoldsFindsNothing() {
        let locator = HLSSegmentLocator(Self.playlist, base: Self.base)
        #expect(locator.segmentIndex(for: "https://origin.example.com/v/c.mp4", byteOffset: 3000) == nil)
        #expect(locator.segmentIndex(for: "https://origin.example.com/v/z.ts") == nil)
        #expect(locator.segmentIndex(for: "a.ts") == nil)
    }

    @Test func aURIListedTwiceIsFoundAfterThePreviousRequest() throws {
        let looping = try HLSPlaylist.parsed("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\nslate.ts\n#EXTINF:6,\nx.ts\n#EXTINF:6,\nslate.ts\n")
        let locator = HLSSegmentLocator(looping, base: Self.base)
        let slate = "https://origin.example.com/v/slate.ts"
        #expect(locator.segmentIndex(for: slate) == 0)
        #expect(locator.segmentIndex(for: slate, after: 0) == 2)
        #expect(locator.segmentIndex(for: slate, after: 1) == 2)
        #expect(locator.segmentIndex(for: slate, after: 2) == 0)
    }

    @Test func keysAreNormalizedLikeTheRequests() throws {
        let playlist = try HLSPlaylist.parsed("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\nHTTPS://Origin.Example.COM/v/a.ts#t=1\n")
        let locator = HLSSegmentLocator(playlist, base: Self.base) { uri in
            String(uri.split(separator: "#", maxSplits: 1)[0]).lowercased()
        }
        #expect(locator.segmentIndex(for: "https://origin.example.com/v/a.ts") == 0)
    }

    @Test func joinedPartsAreFoundByTheirAbsoluteURIs() throws {
        let part = HLSVirtualPlaylist.Part(playlist: Self.playlist, url: Self.base)
        let joined = try HLSVirtualPlaylist(joining: [part, part])
        let locator = HLSSegmentLocator(joined.playlist, base: HLSBaseURL("http://127.0.0.1/anything")!)
        let index = try #require(locator.segmentIndex(for: "https://origin.example.com/v/c.mp4", byteOffset: 1000, after: 4))
        #expect(index == 7)
        #expect(joined.part(containingSegment: index) == (1, 3))
        #expect(joined.timeline.startTime(ofSegment: index) == 12.506 + 6.5)
    }
}
