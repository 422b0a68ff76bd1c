import HLS
import Testing

@Suite struct MultivariantPlaylistTests {
    @Test func parsesVariantsRenditionsIFramesAndSessionTags() throws {
        let playlist = try HLSPlaylist(parsing: try TestFiles.fixture("handwritten/master-alternatives.m3u8"))
        #expect(playlist.kind == .master)
        #expect(playlist.variants.map(\.bandwidth) == [800_000, 2_500_000, 6_000_000])
        #expect(playlist.variants.map(\.averageBandwidth) == [700_000, 2_200_000, 5_000_000])
        #expect(playlist.variants[0].codecs == "avc1.4d401e,mp4a.40.2")
        #expect(playlist.variants[1].resolution == HLSResolution(width: 1280, height: 720))
        #expect(playlist.variants[2].frameRate?.text == "59.940")
        #expect(playlist.variants[0].audio == "aac")
        #expect(playlist.variants[0].subtitles == "subs")
        #expect(playlist.variants[0].closedCaptions == "cc")
        #expect(playlist.variants[2].closedCaptions == "NONE")
        #expect(playlist.iFrameVariants.map(\.uri) == ["video/360p/iframes.m3u8", "video/720p/iframes.m3u8"])
        #expect(playlist.iFrameVariants.allSatisfy { $0.isIFrameOnly })
        #expect(playlist.renditions.map(\.type) == ["AUDIO", "AUDIO", "SUBTITLES", "CLOSED-CAPTIONS"])
        #expect(playlist.renditions[0].isDefault && playlist.renditions[0].autoselect)
        #expect(!playlist.renditions[1].isDefault)
        #expect(playlist.renditions[3].uri == nil)
        #expect(playlist.sessionData.first?.value == "Example, with a comma")
        #expect(playlist.sessionKeys.first?.uri == "skd://session")
        #expect(playlist.warnings.isEmpty)
    }

    @Test func variantSummariesGiveBandwidthsWithoutDecoding() throws {
        let playlist = try HLSPlaylist(parsing: try TestFiles.fixture("handwritten/master-alternatives.m3u8"))
        let summaries = playlist.variantSummaries
        #expect(summaries.filter { !$0.isIFrameOnly }.map(\.bandwidth) == playlist.variants.map(\.bandwidth))
        #expect(summaries.filter(\.isIFrameOnly).map(\.index) == [0, 1])
        let highest = try #require(summaries.filter { !$0.isIFrameOnly }.max { ($0.bandwidth ?? 0) < ($1.bandwidth ?? 0) })
        #expect(playlist.variants[highest.index].resolution?.height == 1080)
    }

    @Test func quotedValuesMayHoldCommasEqualsAndHashes() throws {
        let playlist = try HLSPlaylist.parsed("""
            #EXTM3U
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a,1",NAME="x=y, #z",URI="a.m3u8?p=1,q=2"
            #EXT-X-STREAM-INF:BANDWIDTH=1,AUDIO="a,1",X-VENDOR="p=q,r"
            v.m3u8
            """)
        #expect(playlist.renditions.first?.groupID == "a,1")
        #expect(playlist.renditions.first?.name == "x=y, #z")
        #expect(playlist.renditions.first?.uri == "a.m3u8?p=1,q=2")
        #expect(playlist.variants.first?.attributes.value(named: "X-VENDOR") == "p=q,r")
        #expect(playlist.warnings.isEmpty)
    }

    @Test func contentSteeringAndPathways() throws {
        let playlist = try HLSPlaylist.parsed("""
            #EXTM3U
            #EXT-X-CONTENT-STEERING:SERVER-URI="/steer?v=1",PATHWAY-ID="A"
            #EXT-X-STREAM-INF:BANDWIDTH=1,PATHWAY-ID="A"
            a.m3u8
            """)
        #expect(playlist.contentSteering?.serverURI == "/steer?v=1")
        #expect(playlist.contentSteering?.pathwayID == "A")
    }

    @Test func aPlaylistWithOnlySessionTagsIsMultivariant() throws {
        let playlist = try HLSPlaylist.parsed("#EXTM3U\n#EXT-X-SESSION-KEY:METHOD=AES-128,URI=\"k\"\n")
        #expect(playlist.kind == .master)
    }

    @Test func aStreamInfWithoutItsURILineIsNoVariant() throws {
        let playlist = try HLSPlaylist.parsed("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n#EXT-X-STREAM-INF:BANDWIDTH=2\nb.m3u8\n")
        #expect(playlist.variants.map(\.bandwidth) == [2])
        #expect(playlist.warnings.map(\.code) == [.orphan])
        #expect(playlist.warnings.first?.line == 3)
    }

    @Test func groupsNamedByVariantsMustExist() throws {
        let playlist = try HLSPlaylist.parsed("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,AUDIO=\"missing\"\na.m3u8\n")
        #expect(playlist.warnings.map(\.code) == [.attribute])
        #expect(playlist.warnings.first?.line == 2)
    }
}
