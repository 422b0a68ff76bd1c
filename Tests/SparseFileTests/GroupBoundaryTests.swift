import Foundation
import Testing
import TestSupport
@testable import SparseFile

/// Data past the first 1 GiB group of the data space: the second group's checksum region sits
/// between the two groups' data, and every path (write, read, verify, repair, compact) must
/// step over it. The file is sparse: the data space before the test's bytes is a hole, so the
/// test costs a few MiB of disk, not a GiB.
@Suite("Data past the first group")
struct GroupBoundaryTests {
    let directory = TemporaryDirectory()
    let origin = TestBytes(seed: 7)
    /// Stored bytes run from 1 MiB before the end of group 0 to 2 MiB into group 1.
    let start = FileLayout.groupDataSize - (1 << 20)
    let length = 3 << 20

    func range(_ offset: UInt64, _ length: Int) throws -> ByteRange {
        try #require(ByteRange(offset: offset, length: UInt64(length)))
    }

    /// A file holding original bytes `0..<length` at data offsets from `start` on, committed.
    func fileAcrossTheBoundary() throws -> String {
        let path = directory.file("boundary")
        let file = try SparseFile.create(at: path, metadata: ResourceMetadata(key: "big"))
        file.skipDataSpace(to: start)
        try file.write(origin.bytes(0, length), at: 0)
        try file.close()
        return path
    }

    @Test func bytesAcrossTheFirstGroupBoundaryReadBackAndVerify() throws {
        let path = try fileAcrossTheBoundary()
        let file = try SparseFile.open(at: path)
        #expect(file.storedExtents.map(\.dataOffset) == [start])
        #expect(try file.headerInfo.dataEnd == start + UInt64(length))
        #expect(try file.read(try range(0, length)) == .bytes(origin.bytes(0, length)))
        // A small read on each side of the boundary, and one across it, in a fresh process view.
        let fresh = try SparseFile.open(at: path)
        for offset: UInt64 in [(1 << 20) - 5000, (1 << 20) - 100, (1 << 20) + 70_000] {
            #expect(try fresh.read(try range(offset, 9000)) == .bytes(origin.bytes(offset, 9000)))
        }
        let report = try file.verify()
        #expect(report.isSound)
        #expect(report.checkedBytes == UInt64(length))
        let allocated = try file.allocatedBytes
        #expect(allocated < 16 << 20, "the file should be sparse, not \(allocated) bytes on disk")
    }

    @Test func corruptionInTheSecondGroupIsFoundRepairedAndLeftOutByCompaction() throws {
        let path = try fileAcrossTheBoundary()
        // One byte of data in group 1, and one checksum entry in group 1's checksum region.
        let dataOffset = FileLayout.groupDataSize + 10_000
        let damagedBlock = FileLayout.block(containing: FileLayout.groupDataSize + 300_000)
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        for fileOffset in [FileLayout.fileOffset(ofData: dataOffset), FileLayout.fileOffset(ofChecksumFor: damagedBlock)] {
            try handle.seek(toOffset: fileOffset)
            let byte = try #require(try handle.read(upToCount: 1)?.first)
            try handle.seek(toOffset: fileOffset)
            try handle.write(contentsOf: Data([byte ^ 0x40]))
        }
        try handle.close()
        let first = (FileLayout.block(containing: dataOffset) * FileLayout.blockSize) - start
        let second = (damagedBlock * FileLayout.blockSize) - start
        let damaged = [try range(first, 4096), try range(second, 4096)]

        #expect(try SparseFile.open(at: path).verify().corruptRanges == damaged)
        let file = try SparseFile.open(at: path, mode: .readWrite)
        let repair = try file.repair()
        #expect(repair.droppedRanges == damaged)
        #expect(try file.verify().isSound)
        let compaction = try file.compact()
        #expect(compaction.fileSizeAfter < FileLayout.groupDataSize, "compaction moves the bytes to the first group")
        try file.close()

        let compacted = try SparseFile.open(at: path)
        #expect(compacted.cachedRanges == [try range(0, Int(first)), try range(first + 4096, Int(second - first - 4096)),
                                          try range(second + 4096, length - Int(second) - 4096)])
        for kept in compacted.cachedRanges {
            #expect(try compacted.read(kept) == .bytes(origin.bytes(kept.offset, Int(kept.length))))
        }
        #expect(try compacted.verify().isSound)
    }
}

extension SparseFile {
    /// Moves the data end of a writer with nothing appended yet to `offset`, leaving the data
    /// space before it a hole, as if that much had been used and dropped.
    fileprivate func skipDataSpace(to offset: UInt64) {
        writer.withLock { writer in
            precondition(writer.tail.isEmpty && writer.pendingChecksums.isEmpty && offset % FileLayout.blockSize == 0)
            writer.pendingFirstBlock = FileLayout.block(containing: offset)
            state.withLock { $0.dataEnd = offset }
        }
    }
}
