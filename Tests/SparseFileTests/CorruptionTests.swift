import Foundation
import Testing
import TestSupport
@testable import SparseFile

/// Flipped bits and cut-off files: verification finds the damage, reads never return it.
@Suite("Corruption")
struct CorruptionTests {
    let directory = TemporaryDirectory()
    let origin = TestBytes(seed: 3)

    /// A file with a contiguous run, scattered small ranges, metadata, and both header slots in use.
    func pristine(spilled: Bool) throws -> (path: String, bytes: [UInt8]) {
        let path = directory.file("pristine-\(spilled)")
        let key = spilled ? "k" + String(repeating: "x", count: 3900) : "k"
        let file = try SparseFile.create(at: path, metadata: ResourceMetadata(key: key, contentType: "video/mp4"),
                                         options: SparseFileOptions(durability: .none, autoCommitInterval: nil))
        try file.write(origin.bytes(0, 300_000), at: 0)
        try file.commit()
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<40 {
            let offset = UInt64.random(in: 400_000..<5_000_000, using: &generator)
            try file.write(origin.bytes(offset, 777), at: offset)
        }
        try file.close()
        #expect(try SparseFile.open(at: path).headerInfo.isTableSpilled == spilled)
        return (path, [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    /// Every byte a damaged file serves must be the origin's; returns whether any cached range
    /// turned out missing on read.
    func readEverything(_ file: SparseFile) throws -> Bool {
        var sawDamage = false
        for range in file.cachedRanges {
            switch try file.read(range) {
            case .bytes(let bytes):
                #expect(origin.matches(bytes, at: range.offset))
            case .missing:
                sawDamage = true
            }
        }
        return sawDamage
    }

    /// Whether `offset` is a byte whose change must be detected: a header slot, a stored checksum
    /// of a block that holds cached bytes, or a cached byte itself.
    func isProtected(_ offset: UInt64, in file: SparseFile) -> Bool {
        if offset < UInt64(FileLayout.slotCount * FileLayout.slotSize) { return true }
        for extent in file.storedExtents {
            let first = FileLayout.block(containing: extent.dataOffset)
            let last = FileLayout.block(containing: extent.dataOffset + extent.range.length - 1)
            for block in first...last {
                let checksum = FileLayout.fileOffset(ofChecksumFor: block)
                if offset >= checksum && offset < checksum + 8 { return true }
            }
            let start = FileLayout.fileOffset(ofData: extent.dataOffset)
            if offset >= start && offset < start + extent.range.length
                && FileLayout.contiguousDataLength(from: extent.dataOffset) >= extent.range.length {
                return true
            }
        }
        return false
    }

    @Test(arguments: [false, true])
    func flippedBitsAreFoundByVerifyAndNeverServed(spilled: Bool) throws {
        let (pristinePath, pristine) = try pristine(spilled: spilled)
        let reference = try SparseFile.open(at: pristinePath)
        var generator = SeededGenerator(seed: spilled ? 5 : 6)
        let path = directory.file("damaged")
        for round in 0..<250 {
            var bytes = pristine
            // Most of the file's length is a hole; aim at the slots, the used part of the first
            // checksum region and the data, with a few shots anywhere.
            let regions = [
                0..<Int(FileLayout.dataSpaceFileOffset) / 256,
                Int(FileLayout.dataSpaceFileOffset)..<Int(FileLayout.dataSpaceFileOffset) + 16_384,
                Int(FileLayout.fileOffset(ofData: 0))..<bytes.count,
                0..<bytes.count,
            ]
            let region = regions[round % regions.count]
            let offset = Int.random(in: region, using: &generator)
            bytes[offset] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &generator)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let mustDetect = isProtected(UInt64(offset), in: reference)
            let file: SparseFile
            do {
                file = try SparseFile.open(at: path)
            } catch {
                // One flipped bit can only break one slot; the other must still open.
                Issue.record("round \(round): a single flipped bit at \(offset) made the file unopenable: \(error)")
                continue
            }
            let report = try file.verify()
            if mustDetect {
                #expect(!report.isSound, "round \(round): flip at \(offset) went unnoticed")
            }
            let sawDamage = try readEverything(file)
            if sawDamage { #expect(!report.isSound) }
        }
    }

    @Test func aFileCutShortServesOnlyWhatRemainsAndVerifyNamesTheLoss() throws {
        let (_, pristine) = try pristine(spilled: false)
        var generator = SeededGenerator(seed: 8)
        let path = directory.file("cut")
        for _ in 0..<120 {
            let length = Int.random(in: 0..<pristine.count, using: &generator)
            try Data(pristine.prefix(length)).write(to: URL(fileURLWithPath: path))
            guard let file = try? SparseFile.open(at: path) else {
                // Only a cut inside the header area may make the file unopenable.
                #expect(length < Int(FileLayout.dataSpaceFileOffset))
                continue
            }
            let report = try file.verify()
            let sawDamage = try readEverything(file)
            #expect(sawDamage == !report.corruptRanges.isEmpty)
            #expect(!report.isSound || length == pristine.count)
        }
    }

    @Test func aCorruptBlockReadsAsAMissAndTheWriterForgetsIt() throws {
        let (path, pristine) = try pristine(spilled: false)
        var bytes = pristine
        let target = Int(FileLayout.fileOffset(ofData: 50_000))
        bytes[target] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let file = try SparseFile.open(at: path, mode: .readWrite)
        let block = try #require(ByteRange(offset: 49_152, length: 4096))
        #expect(try file.read(try #require(ByteRange(offset: 40_000, length: 20_000))) == .missing([block]))
        #expect(file.corruptBlocksDetected == 1)
        #expect(file.missingRanges(in: block) == [block])
        // The miss is refilled from the origin, and the file is sound again.
        try file.write(origin.bytes(block.offset, 4096), at: block.offset)
        try file.close()
        let reopened = try SparseFile.open(at: path)
        #expect(try reopened.read(try #require(ByteRange(offset: 0, length: 300_000))) == .bytes(origin.bytes(0, 300_000)))
    }

    @Test func repairDropsOnlyTheCorruptRangesAndRewritesABadSlot() throws {
        let (path, pristine) = try pristine(spilled: false)
        var bytes = pristine
        bytes[Int(FileLayout.fileOffset(ofData: 100_000))] ^= 1
        bytes[FileLayout.slotSize + 300] ^= 1  // damage one header slot too
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let before = try SparseFile.open(at: path).cachedByteCount
        let file = try SparseFile.open(at: path, mode: .readWrite)
        let report = try file.repair()
        #expect(report.droppedRanges == [try #require(ByteRange(offset: 98_304, length: 4096))])
        #expect(report.rewroteHeader)
        try file.close()
        let repaired = try SparseFile.open(at: path)
        #expect(repaired.cachedByteCount == before - 4096)
        #expect(try repaired.verify().isSound)
        #expect(try readEverything(repaired) == false)
    }

    @Test func compactionRewritesInOriginOrderAndDropsCorruptBlocks() throws {
        let path = directory.file("fragmented")
        let file = try SparseFile.create(at: path, metadata: ResourceMetadata(key: "k"),
                                         options: SparseFileOptions(durability: .none, autoCommitInterval: nil))
        // Backwards, in 10 KB pieces: every piece is its own extent.
        for index in (0..<100).reversed() {
            try file.write(origin.bytes(UInt64(index) * 10_000, 10_000), at: UInt64(index) * 10_000)
        }
        try file.commit()
        #expect(file.extentCount == 100)
        let reader = try SparseFile.open(at: path)
        let report = try file.compact()
        #expect(report.extentsAfter == 1)
        #expect(report.droppedRanges.isEmpty)
        #expect(try file.read(try #require(ByteRange(offset: 0, length: 1_000_000))) == .bytes(origin.bytes(0, 1_000_000)))
        // A reader that had the old file open keeps reading it.
        #expect(try reader.read(try #require(ByteRange(offset: 5, length: 50))) == .bytes(origin.bytes(5, 50)))
        try file.write(origin.bytes(1_000_000, 100), at: 1_000_000)
        try file.close()
        let reopened = try SparseFile.open(at: path)
        #expect(reopened.extentCount == 1)
        #expect(try reopened.verify().isSound)
        #expect(reopened.cachedRanges == [try #require(ByteRange(offset: 0, length: 1_000_100))])
    }
}
