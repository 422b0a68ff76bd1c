import HLS
import Testing

@Suite struct MediaPlaylistTests {
    @Test func parsesTheHeaderAndSegmentsOfAVODPlaylist() throws {
        let playlist = try HLSPlaylist(parsing: try TestFiles.fixture("handwritten/aes128-vod.m3u8"))
        #expect(playlist.kind == .media)
        #expect(playlist.version == 3)
        #expect(playlist.targetDuration == 6)
        #expect(playlist.playlistType == .vod)
        #expect(playlist.endList)
        #expect(!playlist.isLive)
        #expect(playlist.segments.map(\.uri) == ["segment-0.ts", "segment-1.ts", "segment-2.ts", "segment-3.ts"])
        #expect(playlist.segments.map(\.duration.text) == ["6.006", "6.006", "5.5", "3.2"])
        #expect(playlist.segments[3].title == "last one")
        #expect(playlist.segments[0].title == nil)
        #expect(playlist.segments.map(\.sequenceNumber) == [0, 1, 2, 3])
        #expect(playlist.warnings.isEmpty)
    }

    @Test func keyNoneClearsTheKeysInForce() throws {
        let playlist = try HLSPlaylist(parsing: try TestFiles.fixture("handwritten/aes128-vod.m3u8"))
        let keys = playlist.segments.map(\.keys)
        #expect(keys[0].map(\.uri) == ["https://keys.example.com/k1?id=7"])
        #expect(keys[0].first?.iv == "0x00000000000000000000000000000001")
        #expect(keys[1] == keys[0])
        #expect(keys[2].isEmpty)
        #expect(keys[3].map(\.method) == ["AES-128"])
        #expect(keys[3].first?.iv == nil)
    }

    @Test func keysOfDifferentKeyFormatsAreAllInForceInOrder() throws {
        let playlist = try HLSPlaylist(parsing: try TestFiles.fixture("handwritten/sample-aes-multi-drm.m3u8"))
        let keys = try #require(playlist.segments.first).keys
        #expect(keys.map(\.keyFormat) == ["com.apple.streamingkeydelivery", "urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed"])
        #expect(keys.map(\.keyFormatVersions) == ["1", "1"])
        #expect(playlist.segments.allSatisfy { $0.map?.uri == "init.mp4" })
    }

    @Test func aKeyWithTheSameKeyFormatReplacesTheOldOne() throws {
        let playlist = try HLSPlaylist.parsed("""
            #EXTM3U
            #EXT-X-VERSION:5
            #EXT-X-TARGETDURATION:4
            #EXT-X-KEY:METHOD=AES-128,URI="a"
            #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://b",KEYFORMAT="com.apple.streamingkeydelivery"
            #EXTINF:4,
            1.ts
            #EXT-X-KEY:METHOD=AES-128,URI="c",KEYFORMAT="identity"
            #EXTINF:4,
            2.ts
            """)
        #expect(playlist.segments[0].keys.map(\.uri) == ["a", "skd://b"])
        #expect(playlist.segments[1].keys.map(\.uri) == ["skd://b", "c"])
    }

    @Test func mediaSequenceDiscontinuitiesAndProgramDateTimeApplyToTheRightSegments() throws {
        let playlist = try HLSPlaylist(parsing: try TestFiles.fixture("handwritten/daterange-scte35.m3u8"))
        #expect(playlist.mediaSequence == 100)
        #expect(playlist.discontinuitySequence == 0)
        #expect(playlist.isLive)
        #expect(playlist.segments.map(\.discontinuity) == [false, true, false, false, true])
        #expect(playlist.segments[0].programDateTime == "2026-03-05T11:14:00.000Z")
        #expect(playlist.segments[1].programDateTime == nil)
        #expect(playlist.segments.last?.sequenceNumber == 104)
        #expect(playlist.unknownTags == ["#EXT-X-CUE-OUT:DURATION=30", "#EXT-X-CUE-IN"])
    }

    @Test func dateRangesKeepSCTE35AndClientAttributes() throws {
        let playlist = try HLSPlaylist(parsing: try TestFiles.fixture("handwritten/daterange-scte35.m3u8"))
        let ranges = playlist.dateRanges
        #expect(ranges.count == 2)
        #expect(ranges[0].id == "ad-1")
        #expect(ranges[0].dateRangeClass == "com.example.ad")
        #expect(ranges[0].plannedDuration?.text == "30.0")
        #expect(ranges[0].scte35Out?.hasPrefix("0xFC30") == true)
        #expect(ranges[0].clientAttributes == [HLSAttribute(name: "X-AD-ID", value: "creative,42", isQuoted: true),
                                               HLSAttribute(name: "X-COM-EXAMPLE-BEACON", value: "0x1F", isQuoted: false)])
        #expect(ranges[0].segmentIndex == 1)
        #expect(ranges[1].scte35In != nil)
        #expect(ranges[1].duration?.value == 30)
    }

    @Test func lowLatencyPartsHintsReportsAndSkip() throws {
        let playlist = try HLSPlaylist(parsing: try TestFiles.fixture("handwritten/llhls-live.m3u8"))
        #expect(playlist.partTarget?.text == "1.004")
        #expect(playlist.serverControl?.canBlockReload == true)
        #expect(playlist.serverControl?.canSkipUntil?.text == "24.0")
        #expect(playlist.skip?.skippedSegments == 3)
        #expect(playlist.segments.count == 2)
        #expect(playlist.segments.first?.sequenceNumber == 269)
        #expect(playlist.parts.count == 6)
        #expect(playlist.parts.map(\.segmentIndex) == [1, 1, 1, 1, 2, 2])
        #expect(playlist.parts[0].independent)
        #expect(!playlist.parts[1].independent)
        #expect(playlist.preloadHints.map(\.uri) == ["filePart271.2.mp4"])
        #expect(playlist.preloadHints.first?.byteRangeLength == nil)
        #expect(playlist.renditionReports.map(\.lastMediaSequenceNumber) == [271, 271])
        #expect(playlist.renditionReports.map(\.lastPart) == [1, 1])
        #expect(playlist.warnings.isEmpty)
    }

    @Test func partByteRangesResolveTheirImplicitOffsetsAcrossSegments() throws {
        let playlist = try HLSPlaylist(parsing: try TestFiles.fixture("handwritten/llhls-byterange-parts.m3u8"))
        #expect(playlist.parts.map(\.byteRange) == [HLSByteRange(length: 2000, offset: 720),
                                                   HLSByteRange(length: 2000, offset: 2720),
                                                   HLSByteRange(length: 2000, offset: 4720)])
        #expect(playlist.segments.first?.map?.byteRange == HLSByteRange(length: 720, offset: 0))
        #expect(playlist.preloadHints.first?.byteRangeStart == 6720)
        #expect(playlist.preloadHints.first?.byteRangeLength == 2000)
    }

    @Test func iFrameOnlyPlaylistsHaveByteRangeSegments() throws {
        let playlist = try HLSPlaylist(parsing: try TestFiles.fixture("handwritten/iframes-only.m3u8"))
        #expect(playlist.iFramesOnly)
        #expect(playlist.segments.map(\.byteRange?.offset) == [376, 412676, 845312])
        #expect(playlist.segments.first?.byteRange?.httpRangeHeaderValue == "bytes=376-9775")
    }

    @Test func liveSlidingWindowKeepsItsSequenceNumbers() throws {
        let playlist = try HLSPlaylist(parsing: try TestFiles.fixture("handwritten/live-window.m3u8"))
        #expect(playlist.isLive)
        #expect(playlist.mediaSequence == 2680)
        #expect(playlist.discontinuitySequence == 12)
        #expect(playlist.segments.map(\.sequenceNumber) == [2680, 2681, 2682])
    }

    @Test func bitrateAppliesUntilReplacedButNotToByteRangeSegments() throws {
        let playlist = try HLSPlaylist.parsed("""
            #EXTM3U
            #EXT-X-VERSION:4
            #EXT-X-TARGETDURATION:4
            #EXT-X-BITRATE:800
            #EXTINF:4,
            a.ts
            #EXTINF:4,
            #EXT-X-BYTERANGE:10@0
            b.ts
            #EXT-X-BITRATE:1200
            #EXTINF:4,
            c.ts
            """)
        #expect(playlist.segments.map(\.bitrate) == [800, nil, 1200])
    }

    @Test func gapSegmentsAreMarked() throws {
        let playlist = try HLSPlaylist.parsed("""
            #EXTM3U
            #EXT-X-VERSION:8
            #EXT-X-TARGETDURATION:4
            #EXTINF:4,
            a.ts
            #EXT-X-GAP
            #EXTINF:4,
            missing.ts
            """)
        #expect(playlist.segments.map(\.gap) == [false, true])
    }

    @Test func startAndIndependentSegments() throws {
        let playlist = try HLSPlaylist.parsed("""
            #EXTM3U
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-START:TIME-OFFSET=-12.5,PRECISE=YES
            #EXT-X-TARGETDURATION:4
            """)
        #expect(playlist.independentSegments)
        #expect(playlist.start?.timeOffset.value == -12.5)
        #expect(playlist.start?.precise == true)
    }
}
