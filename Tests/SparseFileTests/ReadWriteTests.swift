#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
@testable import SparseFile

@Suite("Reading and writing ranges")
struct ReadWriteTests {
    let directory = TemporaryDirectory()
    let origin = TestBytes(seed: 7)

    func makeFile(_ name: String = "f", length: UInt64? = nil, options: SparseFileOptions = SparseFileOptions()) throws -> SparseFile {
        try SparseFile.create(at: directory.file(name), metadata: ResourceMetadata(key: "k-\(name)", contentLength: length), options: options)
    }

    func range(_ offset: UInt64, _ length: UInt64) throws -> ByteRange {
        try #require(ByteRange(offset: offset, length: length))
    }

    @Test func bytesWrittenAtAnOffsetReadBackExactly() throws {
        let file = try makeFile()
        try file.write(origin.bytes(1000, 50_000), at: 1000)
        #expect(try file.read(range(1000, 50_000)) == .bytes(origin.bytes(1000, 50_000)))
        #expect(try file.read(range(20_000, 7)) == .bytes(origin.bytes(20_000, 7)))
    }

    @Test func aReadReportsExactlyTheMissingSubRanges() throws {
        let file = try makeFile()
        try file.write(origin.bytes(100, 100), at: 100)
        try file.write(origin.bytes(300, 100), at: 300)
        let result = try file.read(range(0, 500))
        #expect(result == .missing([try range(0, 100), try range(200, 100), try range(400, 100)]))
        #expect(file.missingRanges(in: try range(150, 200)) == [try range(200, 100)])
    }

    @Test func overlappingBytesAlreadyPresentAreNotWrittenAgain() throws {
        let file = try makeFile()
        #expect(try file.write(origin.bytes(0, 1000), at: 0) == 1000)
        #expect(try file.write(origin.bytes(500, 1000), at: 500) == 500)
        #expect(try file.write(origin.bytes(0, 1500), at: 0) == 0)
        #expect(try file.headerInfo.dataEnd == 1500)
        #expect(try file.read(range(0, 1500)) == .bytes(origin.bytes(0, 1500)))
    }

    @Test func adjacentWritesCoalesceIntoOneExtent() throws {
        let file = try makeFile()
        for index in 0..<100 {
            try file.write(origin.bytes(UInt64(index) * 777, 777), at: UInt64(index) * 777)
        }
        #expect(file.extentCount == 1)
        #expect(file.cachedRanges == [try range(0, 77_700)])
    }

    @Test func rangesTouchingOnlyInTheOriginalAreListedMerged() throws {
        let file = try makeFile()
        try file.write(origin.bytes(1000, 1000), at: 1000)
        try file.write(origin.bytes(0, 1000), at: 0)
        #expect(file.extentCount == 2)
        #expect(file.cachedRanges == [try range(0, 2000)])
        #expect(file.cachedLength(from: 10) == 1990)
    }

    @Test func committedBytesSurviveReopening() throws {
        let path = directory.file("f")
        do {
            let file = try makeFile()
            try file.write(origin.bytes(5, 10_000), at: 5)
            try file.updateMetadata {
                $0.entityTag = "\"v1\""
                $0.contentType = "video/mp4"
                $0.lastModified = "Tue, 03 Nov 2026 10:00:00 GMT"
                $0.attributes["pinned"] = "1"
            }
            try file.close()
        }
        let reopened = try SparseFile.open(at: path, expectedKey: "k-f")
        #expect(try reopened.read(range(5, 10_000)) == .bytes(origin.bytes(5, 10_000)))
        #expect(reopened.metadata.entityTag == "\"v1\"")
        #expect(reopened.metadata.contentType == "video/mp4")
        #expect(reopened.metadata.lastModified == "Tue, 03 Nov 2026 10:00:00 GMT")
        #expect(reopened.metadata.attributes == ["pinned": "1"])
    }

    @Test func uncommittedBytesAreVisibleInProcessButNotAfterReopening() throws {
        let path = directory.file("f")
        let file = try makeFile(options: SparseFileOptions(autoCommitInterval: nil))
        try file.write(origin.bytes(0, 4096), at: 0)
        try file.commit()
        try file.write(origin.bytes(4096, 10_000), at: 4096)
        #expect(try file.read(range(0, 14_096)) == .bytes(origin.bytes(0, 14_096)))
        let other = try SparseFile.open(at: path)
        #expect(other.cachedRanges == [try range(0, 4096)])
    }

    @Test func writesPastTheContentLengthAreRejected() throws {
        let file = try makeFile(length: 1000)
        #expect(throws: SparseFileError.conflict) { try file.write(origin.bytes(900, 200), at: 900) }
        #expect(file.cachedByteCount == 0)
        try file.write(origin.bytes(0, 1000), at: 0)
        #expect(file.isComplete)
        #expect(throws: SparseFileError.conflict) { try file.updateMetadata { $0.contentLength = 999 } }
    }

    @Test func aFileOpenedForAnotherKeyIsAMismatch() throws {
        _ = try makeFile()
        #expect(throws: SparseFileError.keyMismatch) { try SparseFile.open(at: directory.file("f"), expectedKey: "other") }
    }

    @Test func aSecondWriterIsRefused() throws {
        let file = try makeFile()
        #expect(throws: SparseFileError.lockedByAnotherWriter) {
            try SparseFile.open(at: directory.file("f"), mode: .readWrite)
        }
        try file.close()
    }

    @Test func creatingOverAnExistingFileFails() throws {
        _ = try makeFile()
        #expect(throws: SparseFileError.conflict) { try makeFile() }
    }

    @Test func aReadOnlyFileRefusesChanges() throws {
        try makeFile().close()
        let file = try SparseFile.open(at: directory.file("f"))
        #expect(throws: SparseFileError.readOnly) { try file.write([1, 2, 3], at: 0) }
        #expect(throws: SparseFileError.readOnly) { try file.commit() }
    }

    @Test func aClosedFileFailsCleanly() throws {
        let file = try makeFile()
        try file.close()
        #expect(throws: SparseFileError.closed) { try file.read(range(0, 1)) }
    }

    @Test func theKeyCannotChange() throws {
        let file = try makeFile()
        #expect(throws: SparseFileError.invalidArgument) { try file.updateMetadata { $0.key = "new" } }
    }

    @Test func emptyReadsAndWritesAreNoOps() throws {
        let file = try makeFile()
        #expect(try file.write([], at: 10) == 0)
        #expect(try file.read(range(10, 0)) == .bytes([]))
    }

    @Test func writesAtTheTopOfTheOffsetSpaceWork() throws {
        let file = try makeFile()
        try file.write([1, 2, 3], at: UInt64.max - 3)
        #expect(try file.read(range(UInt64.max - 3, 3)) == .bytes([1, 2, 3]))
        #expect(throws: SparseFileError.invalidArgument) { try file.write([1, 2, 3, 4], at: UInt64.max - 3) }
    }

    @Test func aReaderSeesBytesAsTheWriterAppendsThem() async throws {
        let file = try makeFile(options: SparseFileOptions(durability: .none, autoCommitInterval: 1 << 20))
        let chunk = 16 * 1024
        let total = 4 << 20
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for offset in stride(from: 0, to: total, by: chunk) {
                    try file.write(origin.bytes(UInt64(offset), chunk), at: UInt64(offset))
                }
            }
            group.addTask {
                var position: UInt64 = 0
                while position < UInt64(total) {
                    let available = file.cachedLength(from: position)
                    if available == 0 { await Task.yield(); continue }
                    let length = min(available, 100_000)
                    let result = try file.read(try #require(ByteRange(offset: position, length: length)))
                    #expect(result == .bytes(origin.bytes(position, Int(length))))
                    position += length
                }
            }
            try await group.waitForAll()
        }
    }

    @Test func aLargeRangeTableSpillsAndReloads() throws {
        let path = directory.file("f")
        let file = try makeFile(options: SparseFileOptions(durability: .none, autoCommitInterval: nil))
        // 20,000 separate 100-byte ranges: far more than a 4 KiB slot holds.
        for index in 0..<20_000 {
            let offset = UInt64(index) * 1000
            try file.write(origin.bytes(offset, 100), at: offset)
            if index % 5000 == 4999 { try file.commit() }
        }
        try file.close()
        let reopened = try SparseFile.open(at: path)
        #expect(try reopened.headerInfo.isTableSpilled)
        #expect(reopened.extentCount == 20_000)
        #expect(try reopened.read(range(7_777_000, 100)) == .bytes(origin.bytes(7_777_000, 100)))
        #expect(try reopened.verify().isSound)
    }

    @Test func aKeyTooLongForTheSlotIsStoredInASpillArea() throws {
        let key = "https://cdn.example/video.mp4?token=" + String(repeating: "t", count: 20_000)
        let path = directory.file("long")
        let file = try SparseFile.create(at: path, metadata: ResourceMetadata(key: key))
        try file.write(origin.bytes(0, 10), at: 0)
        try file.close()
        let reopened = try SparseFile.open(at: path, expectedKey: key)
        #expect(try reopened.read(range(0, 10)) == .bytes(origin.bytes(0, 10)))
        #expect(try reopened.verify().isSound)
        let tooLong = String(repeating: "k", count: 70_000)
        #expect(throws: SparseFileError.invalidArgument) {
            try SparseFile.create(at: directory.file("too-long"), metadata: ResourceMetadata(key: tooLong))
        }
    }

    @Test func verifiedRegionsAppearOnlyAfterTheBytesWereReadAndPointAtThem() throws {
        let path = directory.file("regions")
        let writer = try SparseFile.create(at: path, metadata: ResourceMetadata(key: "r"))
        try writer.write(origin.bytes(0, 100_000), at: 0)
        try writer.close()
        let file = try SparseFile.open(at: path)
        let wanted = try range(10_000, 50_000)
        #expect(!file.hasVerifiedRegion(for: wanted))  // not verified yet in this process
        #expect(!file.hasVerifiedRegion(for: try range(90_000, 20_000)))  // not all cached
        _ = try file.read(wanted)
        let region = try requireRegion(file, wanted)
        #expect(region.spans.count == 1)
        let span = try #require(region.spans.first)
        #expect(readAll(region.rawDescriptor, count: Int(span.length), at: span.fileOffset) == origin.bytes(10_000, 50_000))
    }

    @Test func aVerifiedRegionAcrossExtentsWrittenOutOfOrderListsEachRunInOriginalOrder() throws {
        let path = directory.file("regions-out-of-order")
        let file = try SparseFile.create(at: path, metadata: ResourceMetadata(key: "r"))
        try file.write(origin.bytes(0, 50_000), at: 0)
        try file.write(origin.bytes(100_000, 50_000), at: 100_000)
        try file.write(origin.bytes(50_000, 50_000), at: 50_000)
        let wanted = try range(40_000, 70_000)
        let region = try requireRegion(file, wanted)  // written here, so verified
        #expect(region.spans.count == 3)
        let served = region.spans.flatMap { readAll(region.rawDescriptor, count: Int($0.length), at: $0.fileOffset) ?? [] }
        #expect(served == origin.bytes(40_000, 70_000))
    }

    @Test func aVerifiedRunMatchesTheRegionAndIsTiedToTheDescriptorItWasFoundWith() throws {
        let path = directory.file("runs")
        let file = try SparseFile.create(at: path, metadata: ResourceMetadata(key: "r"))
        try file.write(origin.bytes(100_000, 50_000), at: 100_000)
        try file.write(origin.bytes(0, 50_000), at: 0)
        let wanted = try range(110_000, 20_000)
        let run = try #require(file.verifiedRun(for: wanted))
        let region = try requireRegion(file, wanted)
        #expect(region.spans.first?.fileOffset == run.fileOffset)
        #expect(region.descriptorGeneration == run.descriptorGeneration)
        #expect(file.verifiedRun(for: try range(40_000, 20_000)) == nil)  // crosses into a gap
        // Compaction moves the bytes (origin order) and gives the file a new descriptor: the run
        // found now belongs to another generation, so an old duplicate is never used with it.
        try file.write(origin.bytes(50_000, 50_000), at: 50_000)
        _ = try file.compact()
        let moved = try #require(file.verifiedRun(for: wanted))
        #expect(moved.descriptorGeneration != run.descriptorGeneration)
        let fresh = try requireRegion(file, wanted)
        #expect(readAll(fresh.rawDescriptor, count: 20_000, at: moved.fileOffset) == origin.bytes(110_000, 20_000))
    }

    @Test func aVerifiedRegionClosesItsDescriptorUnlessItIsTaken() throws {
        let file = try SparseFile.create(at: directory.file("owned"), metadata: ResourceMetadata(key: "r"))
        try file.write(origin.bytes(0, 10_000), at: 0)
        let wanted = try range(0, 10_000)
        var dropped: Int32 = -1
        do {
            let region = try requireRegion(file, wanted)
            dropped = region.rawDescriptor
            #expect(names(dropped, file.path))
        }
        // Another test may reuse the number at once, but not for this file.
        #expect(!names(dropped, file.path), "a dropped region closes its duplicate")
        let taken = try requireRegion(file, wanted).takeDescriptor()
        defer { close(taken) }
        #expect(readAll(taken, count: 10_000, at: FileLayout.fileOffset(ofData: 0)) == origin.bytes(0, 10_000))
    }

    @Test func theMetadataRevisionChangesExactlyWhenTheMetadataDoes() throws {
        let file = try SparseFile.create(at: directory.file("revisions"), metadata: ResourceMetadata(key: "r"))
        let initial = file.metadataRevision
        try file.write(origin.bytes(0, 10_000), at: 0)
        try file.commit()
        #expect(file.metadataRevision == initial)
        try file.updateMetadata { $0.entityTag = "\"v2\"" }
        #expect(file.metadataRevision != initial)
        let updated = file.metadataRevision
        try file.updateMetadata { $0.entityTag = "\"v2\"" }  // no change
        #expect(file.metadataRevision == updated)
    }

    /// Whether `descriptor` is open on the file at `path`.
    private func names(_ descriptor: Int32, _ path: String) -> Bool {
        var open = stat()
        var named = stat()
        return fstat(descriptor, &open) == 0 && stat(path, &named) == 0 && open.st_ino == named.st_ino && open.st_dev == named.st_dev
    }

    /// The verified region of `range` (Testing's macros take copyable values only).
    private func requireRegion(_ file: SparseFile, _ range: ByteRange) throws -> SparseFile.VerifiedRegion {
        guard let region = file.verifiedRegion(for: range) else { throw NoRegion(range: range) }
        return region
    }

    private struct NoRegion: Error {
        var range: ByteRange
    }

    /// `count` bytes of `descriptor` at `offset`, or nil when fewer could be read.
    private func readAll(_ descriptor: Int32, count: Int, at offset: UInt64) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
        return got == count ? bytes : nil
    }
}

extension SparseFile {
    fileprivate func hasVerifiedRegion(for range: ByteRange) -> Bool {
        verifiedRegion(for: range) != nil
    }
}
