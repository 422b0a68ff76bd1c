import DASH
import Testing

/// The `sidx` parser: ffmpeg's global index gives the byte ranges ffmpeg's own SegmentList lists
/// for the same file, and malformed boxes are refused with their offset.
@Suite struct SegmentIndexTests {
    @Test(arguments: [(0, UInt64(820)), (1, UInt64(769))])
    func ffmpegIndexGivesTheRangesOfItsSegmentList(_ stream: Int, _ indexOffset: UInt64) throws {
        let box = try Fixtures.bytes("ffmpeg/segment-base-stream\(stream).sidx")
        let index = try DASHSegmentIndex(parsing: box, fileOffset: indexOffset)
        let list = try Fixtures.manifest("ffmpeg/single-file.mpd").representations[stream]
        let expected = try list.segmentRequests(manifestURL: Fixtures.manifestURL).map(\.byteRange)
        #expect(index.references.map(\.range) == expected)
        #expect(index.boxRange == DASHByteRange(first: indexOffset, last: indexOffset + UInt64(box.count) - 1))
        #expect(index.references.allSatisfy { !$0.isIndex && $0.startsWithSAP })
    }

    @Test func segmentBaseRepresentationListsTheIndexedSegments() throws {
        let manifest = try Fixtures.manifest("ffmpeg/segment-base.mpd")
        let representation = manifest.representations[0]
        let error = #expect(throws: DASHAddressingError.self) {
            try representation.segmentRequests(manifestURL: Fixtures.manifestURL)
        }
        #expect(error?.code == .needsIndex)
        let indexRequest = try #require(representation.indexRequest(manifestURL: Fixtures.manifestURL))
        #expect(indexRequest.url == "https://origin.example/video/manifest-stream0.mp4")
        #expect(indexRequest.byteRange?.httpRangeHeaderValue == "bytes=820-907")
        let initialization = try representation.initializationRequest(manifestURL: Fixtures.manifestURL)
        #expect(initialization?.byteRange == DASHByteRange(first: 0, last: 819))
        let index = try DASHSegmentIndex(parsing: try Fixtures.bytes("ffmpeg/segment-base-stream0.sidx"),
                                         fileOffset: try #require(indexRequest.byteRange?.first))
        let requests = Array(try representation.segmentRequests(manifestURL: Fixtures.manifestURL, index: index))
        #expect(requests.count == 4)
        #expect(requests.first?.byteRange == DASHByteRange(first: 908, last: 12_411))
        #expect(requests.map(\.startSeconds) == [0, 2, 4, 6])
        let second = try representation.segmentRequests(manifestURL: Fixtures.manifestURL,
                                                        in: DASHTimeRange(start: 2.5, end: 4), index: index)
        #expect(second.map(\.byteRange) == [DASHByteRange(first: 12_412, last: 23_839)])
    }

    @Test func truncatedOrInconsistentBoxesAreRefusedWithTheirOffset() throws {
        let box = try Fixtures.bytes("ffmpeg/segment-base-stream0.sidx")
        #expect(throws: DASHIndexError(code: .truncated, message: "", offset: 0)) {
            try DASHSegmentIndex(parsing: Array(box.dropLast()))
        }
        // ffmpeg writes version 1: 64-bit time and offset, the reference count at bytes 38-39.
        #expect(try DASHSegmentIndex(parsing: box).version == 1)
        var wrongCount = box
        wrongCount[39] = 5
        #expect(throws: DASHIndexError(code: .malformed, message: "", offset: 0)) { try DASHSegmentIndex(parsing: wrongCount) }
        var version = box
        version[8] = 2
        #expect(throws: DASHIndexError(code: .unsupportedVersion, message: "", offset: 0)) { try DASHSegmentIndex(parsing: version) }
        let other: [UInt8] = [0, 0, 0, 8] + Array("free".utf8)
        let error = #expect(throws: DASHIndexError.self) { try DASHSegmentIndex(parsing: other) }
        #expect(error?.code == .notFound)
        #expect(error?.offset == 8)
        // A `styp` box before the index is skipped.
        let found = try DASHSegmentIndex(parsing: other + box, fileOffset: 100)
        #expect(found.boxRange.first == 108)
        #expect(throws: DASHIndexError(code: .malformed, message: "", offset: 0)) {
            try DASHSegmentIndex(parsing: [0, 0, 0, 4] + Array("sidx".utf8))
        }
    }

    @Test func offsetsPastSixtyFourBitsAreAnOverflowError() throws {
        var box = try Fixtures.bytes("ffmpeg/segment-base-stream0.sidx")
        // first_offset (version 1: bytes 28..<36) set near 2^64.
        for position in 28..<36 { box[position] = 0xFF }
        #expect(throws: DASHIndexError(code: .overflow, message: "", offset: 0)) {
            try DASHSegmentIndex(parsing: box, fileOffset: 100)
        }
    }

    @Test func hierarchicalIndexesAreReportedNotMisread() throws {
        var box = try Fixtures.bytes("ffmpeg/segment-base-stream0.sidx")
        box[40] |= 0x80
        let index = try DASHSegmentIndex(parsing: box, fileOffset: 820)
        #expect(index.references.first?.isIndex == true)
        let representation = try Fixtures.manifest("ffmpeg/segment-base.mpd").representations[0]
        #expect(throws: DASHAddressingError(code: .hierarchicalIndex, message: "", position: .whole)) {
            try representation.segmentRequests(manifestURL: Fixtures.manifestURL, index: index)
        }
    }
}
