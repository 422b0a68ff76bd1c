import HLS
import Testing

/// Integers to 2^64-1 exactly, decimals as written, and the implicit byte-range offset rule.
@Suite struct NumberAndByteRangeTests {
    @Test func integersReachTwoToTheSixtyFourMinusOneExactly() throws {
        let playlist = try HLSPlaylist.parsed("""
            #EXTM3U
            #EXT-X-VERSION:4
            #EXT-X-TARGETDURATION:6
            #EXT-X-MEDIA-SEQUENCE:18446744073709551614
            #EXT-X-DISCONTINUITY-SEQUENCE:18446744073709551615
            #EXTINF:6.000,
            #EXT-X-BYTERANGE:1000@9007199254740993
            big.ts
            #EXTINF:6.000,
            #EXT-X-BYTERANGE:1000
            big.ts
            #EXTINF:6.000,
            big2.ts
            """)
        #expect(playlist.mediaSequence == 18_446_744_073_709_551_614)
        #expect(playlist.discontinuitySequence == UInt64.max)
        #expect(playlist.segments.map(\.byteRange?.offset) == [9_007_199_254_740_993, 9_007_199_254_740_993 + 1000, nil])
        #expect(playlist.segments.map(\.sequenceNumber) == [18_446_744_073_709_551_614, UInt64.max, nil])
        #expect(playlist.warnings.isEmpty)
    }

    @Test(arguments: [("0", 0), ("12345678", 12_345_678), ("000000001", 1), ("123456789012", 123_456_789_012),
                      ("1234567890123456", 1_234_567_890_123_456), ("12345678901234567", 12_345_678_901_234_567),
                      ("18446744073709551615", UInt64.max)] as [(String, UInt64)])
    func integersOfEveryLengthParseExactly(_ example: (String, UInt64)) throws {
        let playlist = try HLSPlaylist.parsed("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:\(example.0)\n")
        #expect(playlist.mediaSequence == example.1)
        #expect(playlist.warnings.isEmpty)
    }

    @Test(arguments: ["18446744073709551616", "1234567x", "12345678901234x6", "99999999999999999999999", "-1", "1.5", "0x10", "", " 7x"])
    func outOfRangeOrMalformedIntegersAreRejectedNotWrapped(_ value: String) throws {
        let playlist = try HLSPlaylist.parsed("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:\(value)\n")
        #expect(playlist.mediaSequence == 0)
        #expect(!playlist.warnings.isEmpty)
    }

    @Test func byteRangesThatWouldEndPast2To64AreReported() throws {
        let playlist = try HLSPlaylist(parsing: try TestFiles.fixture("handwritten/malformed-overflow.m3u8"))
        #expect(playlist.warnings.contains { $0.code == .range && $0.line == 7 })
        #expect(playlist.segments[1].byteRange == HLSByteRange(length: 10, offset: UInt64.max))
        #expect(playlist.segments[1].byteRange?.httpRangeHeaderValue == nil)
    }

    @Test(arguments: [("6", "6", 6.0), ("9.009", "9.009", 9.009), ("10.", "10", 10.0), (".5", "0.5", 0.5),
                      ("0010.50", "10.50", 10.5), ("-2.5", "-2.5", -2.5)])
    func decimalsKeepTheirSpellingAndGiveJSONAndDoubleForms(_ example: (String, String, Double)) throws {
        let decimal = try #require(HLSDecimal(example.0))
        #expect(decimal.text == example.0)
        #expect(decimal.jsonText == example.1)
        #expect(decimal.value == example.2)
    }

    @Test(arguments: ["", ".", "1.2.3", "1e5", "+1", "--1", "1,5"])
    func malformedDecimalsAreRejected(_ text: String) {
        #expect(HLSDecimal(text) == nil)
    }

    @Test func implicitOffsetsFollowThePreviousSubRangeOfTheSameResource() throws {
        let playlist = try HLSPlaylist(parsing: try TestFiles.fixture("ffmpeg/single-file-ts.m3u8"))
        let ranges = playlist.segments.compactMap(\.byteRange)
        #expect(ranges.count == 6)
        for (previous, next) in zip(ranges, ranges.dropFirst()) {
            #expect(next.offset == previous.offset + previous.length)
        }
    }

    @Test func implicitOffsetAfterAnotherResourceIsReportedAndContinuesLikePlayers() throws {
        let playlist = try HLSPlaylist.parsed("""
            #EXTM3U
            #EXT-X-VERSION:4
            #EXT-X-TARGETDURATION:10
            #EXTINF:10,
            #EXT-X-BYTERANGE:1000@0
            a.ts
            #EXTINF:10,
            #EXT-X-BYTERANGE:1000
            b.ts
            """)
        #expect(playlist.segments[1].byteRange == HLSByteRange(length: 1000, offset: 1000))
        #expect(playlist.warnings.map(\.code) == [.byteRange])
        #expect(playlist.warnings.first?.line == 8)
    }

    @Test func implicitOffsetWithoutAPreviousSegmentStartsAtZero() throws {
        let playlist = try HLSPlaylist.parsed("#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:10\n#EXT-X-BYTERANGE:100\n#EXTINF:9.9,\na\n")
        #expect(playlist.segments.first?.byteRange == HLSByteRange(length: 100, offset: 0))
        #expect(playlist.warnings.map(\.code) == [.byteRange])
    }
}
