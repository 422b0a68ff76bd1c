#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
import SparseFile

/// Where a file's cached bytes are, in memory or only on disk (`cachestat`), and verifying
/// every block again once pages came back from the disk. The files are written to the
/// system's temporary directory, which must be on a disk (not tmpfs) for pages to leave memory.
@Suite("Page cache residency and verifying again")
struct ResidencyTests {
    let directory = TemporaryDirectory("residency")
    let origin = TestBytes(seed: 41)
    static let length = 1 << 20
    let everything = ByteRange(offset: 0, length: 1 << 40)!

    /// A committed file holding the first ``length`` bytes of `origin`, closed.
    func committedFile(_ name: String) throws -> String {
        let path = directory.file(name)
        let file = try SparseFile.create(at: path, metadata: ResourceMetadata(key: name, contentLength: UInt64(Self.length)),
                                         options: SparseFileOptions(durability: .none))
        try file.write(origin.bytes(0, Self.length), at: 0)
        try file.close()
        return path
    }

    #if os(Linux)
    @Test("Bytes whose pages left memory are on disk; once read, they are in memory",
          .needsPageCacheResidency)
    func residencyFollowsThePageCache() throws {
        let path = try committedFile("a")
        try PageCache.drop(path)
        let file = try SparseFile.open(at: path)
        let middle = try #require(ByteRange(offset: 300_000, length: 65_536))
        #expect(file.pageCacheResidency(of: middle) == .onDisk)
        #expect(try file.read(middle) == .bytes(origin.bytes(300_000, 65_536)))
        #expect(file.pageCacheResidency(of: middle) == .inMemory)
        // Bytes not cached are not asked about: only the cached part of a range counts.
        let pastTheEnd = try #require(ByteRange(offset: 300_000, length: 10 << 20))
        try PageCache.drop(path)
        #expect(file.pageCacheResidency(of: pastTheEnd) == .onDisk)
        let whole = try #require(ByteRange(offset: 0, length: UInt64(Self.length)))
        _ = try file.read(whole)
        #expect(file.pageCacheResidency(of: pastTheEnd) == .inMemory)
    }
    #endif

    @Test("Where the system cannot tell (no cachestat), residency is unknown")
    func unknownWithoutCachestat() throws {
        let path = try committedFile("e")
        var calls = SystemCalls.live
        calls.cachedPages = { _, _, _ in
            errno = ENOSYS
            return -1
        }
        let file = try SparseFile.open(at: path, options: SparseFileOptions(SparseFileOptions(), systemCalls: calls))
        #expect(file.pageCacheResidency(of: try #require(ByteRange(offset: 0, length: 4096))) == .unknown)
        try file.close()
        #expect(file.pageCacheResidency(of: try #require(ByteRange(offset: 0, length: 4096))) == .unknown, "a closed file")
    }

    @Test("A block changed on disk after it was verified fails its check once verification is required again, and is dropped")
    func verifyingAgainCatchesDamageOnDisk() throws {
        let path = try committedFile("b")
        let file = try SparseFile.open(at: path)
        let range = try #require(ByteRange(offset: 500_000, length: 100_000))
        #expect(try file.read(range) == .bytes(origin.bytes(500_000, 100_000)))
        let fileOffset = try #require(file.verifiedRun(for: range)?.fileOffset)
        try PageCache.damageOnDisk(path, at: fileOffset + 50_000)

        file.requireVerificationAgain(within: everything)
        #expect(file.verifiedRun(for: range) == nil, "nothing is sent unread once verification is required again")
        guard case .missing(let missing) = try file.read(range) else {
            Issue.record("the changed block was served")
            return
        }
        #expect(missing.contains { $0.offset <= 550_000 && 550_000 < $0.end })
        #expect(file.corruptBlocksDetected == 1)
        // The blocks around it were checked again, and serve again without reading.
        let before = try #require(ByteRange(offset: 500_000, length: 1000))
        #expect(try file.read(before) == .bytes(origin.bytes(500_000, 1000)))
        #expect(file.verifiedRun(for: before) != nil)
    }

    @Test("verify(_:) checks the blocks not verified yet without handing out their bytes, and finds damage")
    func verifyWithoutCopies() throws {
        let path = try committedFile("f")
        let file = try SparseFile.open(at: path)
        let range = try #require(ByteRange(offset: 200_000, length: 600_000))  // more than one scratch piece
        #expect(file.verifiedRun(for: range) == nil)
        #expect(try file.verify(range) == .complete)
        #expect(file.verifiedRun(for: range) != nil, "verified now: sendable without a copy")
        let fileOffset = try #require(file.verifiedRun(for: range)?.fileOffset)
        try PageCache.damageOnDisk(path, at: fileOffset + 450_000)
        file.requireVerificationAgain(within: everything)
        guard case .missing(let missing) = try file.verify(range) else {
            Issue.record("the damaged block passed")
            return
        }
        #expect(missing.contains { $0.offset <= 650_000 && 650_000 < $0.end })
        let past = try #require(ByteRange(offset: 900_000, length: 200_000))
        #expect(try file.verify(past) == .missing([try #require(ByteRange(from: UInt64(Self.length), to: 1_100_000))]),
                "bytes past the end are not cached")
    }

    @Test("Only the blocks within the range given are verified again")
    func verificationAgainWithinARange() throws {
        let path = try committedFile("g")
        let file = try SparseFile.open(at: path)
        let whole = try #require(ByteRange(offset: 0, length: UInt64(Self.length)))
        _ = try file.read(whole)
        let inside = try #require(ByteRange(offset: 500_000, length: 100_000))
        let before = try #require(ByteRange(offset: 0, length: 400_000))
        let after = try #require(ByteRange(offset: 700_000, length: 300_000))
        file.requireVerificationAgain(within: inside)
        #expect(file.verifiedRun(for: inside) == nil)
        #expect(file.verifiedRun(for: before) != nil && file.verifiedRun(for: after) != nil)
    }

    @Test("Blocks appended since the last commit, whose checksums are not stored yet, stay verified")
    func uncommittedBlocksStayVerified() throws {
        let path = directory.file("c")
        let file = try SparseFile.create(at: path, metadata: ResourceMetadata(key: "c"),
                                         options: SparseFileOptions(durability: .none, autoCommitInterval: nil))
        try file.write(origin.bytes(0, 300_000), at: 0)
        file.requireVerificationAgain(within: everything)
        let written = try #require(ByteRange(offset: 0, length: 300_000))
        #expect(file.verifiedRun(for: written) != nil)
        #expect(try file.read(written) == .bytes(origin.bytes(0, 300_000)))
        try file.commit()
        file.requireVerificationAgain(within: everything)
        #expect(file.verifiedRun(for: written) == nil)
        #expect(try file.read(written) == .bytes(origin.bytes(0, 300_000)))
        #expect(file.corruptBlocksDetected == 0)
        try file.close()
    }

    @Test("A writer that read a checksum page before appending checks its new blocks against what it committed")
    func checksumsCommittedAfterAPageWasReadAreUsed() throws {
        let path = directory.file("d")
        let first = try SparseFile.create(at: path, metadata: ResourceMetadata(key: "d"),
                                          options: SparseFileOptions(durability: .none, autoCommitInterval: nil))
        try first.write(origin.bytes(0, 100_000), at: 0)
        try first.close()
        let file = try SparseFile.open(at: path, mode: .readWrite, options: SparseFileOptions(durability: .none, autoCommitInterval: nil))
        // Verifying the committed bytes reads the checksum page that the new blocks' entries go to.
        #expect(try file.read(try #require(ByteRange(offset: 0, length: 100_000))) == .bytes(origin.bytes(0, 100_000)))
        try file.write(origin.bytes(100_000, 400_000), at: 100_000)
        try file.commit()
        file.requireVerificationAgain(within: everything)
        #expect(try file.read(try #require(ByteRange(offset: 150_000, length: 300_000))) == .bytes(origin.bytes(150_000, 300_000)))
        #expect(file.corruptBlocksDetected == 0)
        try file.close()
    }
}
