import DASH
import Testing

/// The ffmpeg-made presentations parse to what ffmpeg wrote, round-trip byte for byte, and list
/// the segments ffmpeg made.
@Suite struct FixtureTests {
    @Test(arguments: Fixtures.manifests)
    func everyFixtureRoundTripsByteForByte(_ name: String) throws {
        let bytes = try Fixtures.bytes(name)
        let manifest = try DASHManifest(parsing: bytes)
        #expect(manifest.formatted() == bytes)
    }

    @Test(arguments: Fixtures.ffmpegManifests)
    func ffmpegFixturesAreStrictlyValid(_ name: String) throws {
        let manifest = try DASHManifest(parsing: try Fixtures.bytes(name), options: DASHParserOptions(mode: .strict))
        #expect(manifest.warnings.isEmpty)
        #expect(!manifest.representations.isEmpty)
    }

    @Test func timelineFixtureListsFourSegmentsPerVideoRepresentation() throws {
        let manifest = try Fixtures.manifest("ffmpeg/template-timeline.mpd")
        #expect(manifest.type == .static)
        #expect(manifest.mediaPresentationDuration?.seconds == 8)
        let representations = manifest.representations
        #expect(representations.map(\.id) == ["0", "1", "2"])
        #expect(representations.map(\.bandwidth) == [200_000, 400_000, 69_000])
        #expect(representations.map(\.contentType) == ["video", "video", "audio"])
        let video = try representations[1].segmentRequests(manifestURL: Fixtures.manifestURL)
        #expect(video.count == 4)
        let requests = Array(video)
        #expect(requests.map(\.url) == (1...4).map { "https://origin.example/video/chunk-stream1-0000\($0).m4s" })
        #expect(requests.map(\.time) == [0, 25_600, 51_200, 76_800])
        #expect(requests.map(\.startSeconds) == [0, 2, 4, 6])
        let initialization = try representations[1].initializationRequest(manifestURL: Fixtures.manifestURL)
        #expect(initialization?.url == "https://origin.example/video/init-stream1.m4s")
        let audio = Array(try representations[2].segmentRequests(manifestURL: Fixtures.manifestURL))
        #expect(audio.map(\.duration) == [84_992, 88_064, 88_064, 89_088, 2_592])
        #expect(audio.last?.url == "https://origin.example/video/chunk-stream2-00005.m4s")
    }

    @Test func numberedFixtureCountsSegmentsFromThePresentationDuration() throws {
        let manifest = try Fixtures.manifest("ffmpeg/template-number.mpd")
        let requests = Array(try manifest.representations[0].segmentRequests(manifestURL: Fixtures.manifestURL))
        #expect(requests.count == 4)
        #expect(requests.map(\.number) == [1, 2, 3, 4])
        #expect(requests[3].url == "https://origin.example/video/chunk-stream0-00004.m4s")
    }

    @Test func segmentListFixtureListsItsSegmentURLs() throws {
        let manifest = try Fixtures.manifest("ffmpeg/segment-list.mpd")
        let audio = Array(try manifest.representations[1].segmentRequests(manifestURL: Fixtures.manifestURL))
        #expect(audio.count == 5)
        #expect(audio.map(\.startSeconds) == [0, 2, 4, 6, 8])
        let initialization = try manifest.representations[1].initializationRequest(manifestURL: Fixtures.manifestURL)
        #expect(initialization?.url == "https://origin.example/video/init-stream1.m4s")
    }

    @Test func singleFileFixtureListsByteRangesOfOneFile() throws {
        let manifest = try Fixtures.manifest("ffmpeg/single-file.mpd")
        let video = Array(try manifest.representations[0].segmentRequests(manifestURL: Fixtures.manifestURL))
        #expect(Set(video.map(\.url)) == ["https://origin.example/video/manifest-stream0.mp4"])
        #expect(video.first?.byteRange == DASHByteRange(first: 908, last: 12_411))
        let initialization = try manifest.representations[0].initializationRequest(manifestURL: Fixtures.manifestURL)
        #expect(initialization?.byteRange == DASHByteRange(first: 0, last: 907))
    }

    @Test func multiPeriodFixtureTimesItsSecondPeriod() throws {
        let manifest = try Fixtures.manifest("ffmpeg/multi-period.mpd")
        #expect(manifest.periods.count == 2)
        #expect(manifest.periods.map(\.startSeconds) == [0, 8])
        #expect(manifest.periods.map(\.durationSeconds) == [8, 8])
        let second = manifest.periods[1].adaptationSets[0].representations[0]
        #expect(try second.segmentRequests(manifestURL: Fixtures.manifestURL).count == 4)
    }

    @Test func liveFixtureIsDynamicWithAUTCTiming() throws {
        let manifest = try Fixtures.manifest("ffmpeg/live-dynamic.mpd")
        #expect(manifest.type == .dynamic)
        #expect(manifest.minimumUpdatePeriod?.seconds == 2)
        #expect(manifest.utcTimings.first?.schemeIdURI == "urn:mpeg:dash:utc:http-xsdate:2014")
        #expect(manifest.utcTimings.first?.value == "https://time.example.com/?iso")
        let requests = try manifest.representations[0].segmentRequests(manifestURL: Fixtures.manifestURL)
        #expect(requests.count == 3)
    }
}
