import Testing
import TestSupport
@testable import SparseFile

/// Disk full and failing syncs: a clear error, and nothing stored before is lost.
@Suite("I/O faults")
struct FaultTests {
    let directory = TemporaryDirectory()
    let origin = TestBytes(seed: 21)

    func range(_ offset: UInt64, _ length: UInt64) throws -> ByteRange {
        try #require(ByteRange(offset: offset, length: length))
    }

    @Test func aFullDiskFailsTheWriteAndKeepsEverythingStoredBefore() throws {
        let injector = FaultInjector()
        let path = directory.file("f")
        try SparseFile.create(at: path, metadata: ResourceMetadata(key: "k"), options: SparseFileOptions(durability: .none)).close()
        let options = SparseFileOptions(SparseFileOptions(durability: .ordered, autoCommitInterval: nil), systemCalls: injector.calls)
        let file = try SparseFile.open(at: path, mode: .readWrite, options: options)
        try file.write(origin.bytes(0, 100_000), at: 0)
        try file.commit()
        injector.setDiskLimit(200_000)
        #expect(throws: SparseFileError.diskFull) { try file.write(origin.bytes(100_000, 300_000), at: 100_000) }
        // Nothing of the failed write is visible; everything before it is.
        #expect(file.cachedRanges == [try range(0, 100_000)])
        #expect(try file.read(try range(0, 100_000)) == .bytes(origin.bytes(0, 100_000)))
        // Once space frees up, writing resumes where it left off.
        injector.setDiskLimit(.max)
        try file.write(origin.bytes(100_000, 300_000), at: 100_000)
        try file.close()
        let reopened = try SparseFile.open(at: path)
        #expect(try reopened.read(try range(0, 400_000)) == .bytes(origin.bytes(0, 400_000)))
        #expect(try reopened.verify().isSound)
    }

    @Test func aFullDiskDuringACommitLeavesThePreviousCommitInForce() throws {
        let injector = FaultInjector()
        let path = directory.file("f")
        let key = "k" + String(repeating: "y", count: 3900)
        try SparseFile.create(at: path, metadata: ResourceMetadata(key: key), options: SparseFileOptions(durability: .none)).close()
        let options = SparseFileOptions(SparseFileOptions(durability: .ordered, autoCommitInterval: nil), systemCalls: injector.calls)
        let file = try SparseFile.open(at: path, mode: .readWrite, options: options)
        for index in 0..<50 { try file.write(origin.bytes(UInt64(index) * 1000, 10), at: UInt64(index) * 1000) }
        try file.commit()
        for index in 50..<500 { try file.write(origin.bytes(UInt64(index) * 1000, 10), at: UInt64(index) * 1000) }
        // The range table now needs a bigger spill area, which the disk cannot give.
        injector.setDiskLimit(Int64(try file.headerInfo.fileSize))
        #expect(throws: SparseFileError.diskFull) { try file.commit() }
        let reopened = try SparseFile.open(at: path)
        #expect(reopened.extentCount == 50)
        #expect(try reopened.verify().isSound)
    }

    @Test func aFailingSyncFailsTheCommitWithoutDamage() throws {
        let injector = FaultInjector()
        let path = directory.file("f")
        try SparseFile.create(at: path, metadata: ResourceMetadata(key: "k"), options: SparseFileOptions(durability: .none)).close()
        let options = SparseFileOptions(SparseFileOptions(durability: .full, autoCommitInterval: nil), systemCalls: injector.calls)
        let file = try SparseFile.open(at: path, mode: .readWrite, options: options)
        try file.write(origin.bytes(0, 5000), at: 0)
        try file.commit()
        injector.setFailSyncs(true)
        try file.write(origin.bytes(5000, 5000), at: 5000)
        let error = try #require(throws: SparseFileError.self) { try file.commit() }
        #expect(error.code == .ioFailure)
        #expect(error.description.contains("fdatasync"))
        #expect(file.hasUncommittedChanges)
        injector.setFailSyncs(false)
        try file.commit()
        let reopened = try SparseFile.open(at: path)
        #expect(try reopened.read(try range(0, 10_000)) == .bytes(origin.bytes(0, 10_000)))
    }
}
