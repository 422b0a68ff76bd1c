#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization
import Testing
import TestSupport
@testable import CacheStore
import SparseFile

/// A full disk, injected at every write of a fill and real on a small tmpfs: the fill evicts and
/// retries once, then fails with `diskFull`; the store stays consistent, reopens with no error,
/// reads back exactly what was written, and caches again once space is free.
@Suite("A full disk")
struct DiskFullTests {
    let origin = TestBytes(seed: 17)
    static let length = 200_000
    static let chunk = 10_000

    /// `pwrite`s that fail with `code` from the `at`-th one after arming: once, or until cleared.
    final class WriteFaults: Sendable {
        struct Fault {
            var remaining: Int
            var code: Int32
            var persistent: Bool
        }

        private let fault = Mutex<Fault?>(nil)
        private let writes = Mutex(0)

        func arm(at call: Int, code: Int32, persistent: Bool) {
            writes.withLock { $0 = 0 }
            fault.withLock { $0 = Fault(remaining: call, code: code, persistent: persistent) }
        }

        func clear() { fault.withLock { $0 = nil } }
        var writesSinceArmed: Int { writes.withLock { $0 } }

        var calls: SystemCalls {
            var calls = SystemCalls.live
            calls.pwrite = { [self] descriptor, buffer, count, offset in
                writes.withLock { $0 += 1 }
                let failing = fault.withLock { fault -> Int32? in
                    guard var current = fault else { return nil }
                    current.remaining -= 1
                    guard current.remaining <= 0 else {
                        fault = current
                        return nil
                    }
                    fault = current.persistent ? current : nil
                    return current.code
                }
                if let failing {
                    errno = failing
                    return -1
                }
                return SystemCalls.live.pwrite(descriptor, buffer, count, offset)
            }
            return calls
        }
    }

    func configuration(_ calls: SystemCalls = .live, minimumFreeSpace: UInt64? = nil) -> CacheStoreConfiguration {
        CacheStoreConfiguration(
            maximumSize: 1 << 30,
            fileOptions: SparseFileOptions(SparseFileOptions(durability: .ordered, autoCommitInterval: 65_536), systemCalls: calls),
            accessFlushInterval: .seconds(3600), minimumFreeSpace: minimumFreeSpace)
    }

    /// Fills `key` with `length` origin bytes from 0 in chunks; nil on success, else the error.
    func fill(_ store: CacheStore, _ key: String, length: Int = length) -> CacheStoreError? {
        var failure: CacheStoreError?
        do throws(CacheStoreError) {
            for fill in try store.claim(key: key, range: byteRange(0, UInt64(length))).fills {
                do throws(CacheStoreError) {
                    try fill.start(EntryMetadata(contentLength: UInt64(length)))
                    while fill.position < fill.range.end {
                        let count = Int(min(UInt64(Self.chunk), fill.range.end - fill.position))
                        try fill.write(origin.bytes(fill.position, count))
                    }
                    try fill.finish()
                } catch {
                    fill.fail(error)
                    throw error
                }
            }
        } catch {
            failure = error
        }
        return failure
    }

    /// Every cached byte of every entry is the origin's, and the accounting matches the files.
    func checkConsistent(_ store: CacheStore, label: String) throws {
        var total: UInt64 = 0
        for entry in store.entries {
            let file = try #require(store.reader(for: entry.key).file, "\(entry.key) (\(label))")
            #expect(entry.cachedBytes == file.cachedByteCount, "\(entry.key) (\(label))")
            for range in file.cachedRanges {
                let bytes = try #require(store.cachedBytes(entry.key, range), "\(entry.key) \(range) (\(label))")
                #expect(origin.matches(bytes, at: range.offset), "\(entry.key) \(range) (\(label))")
            }
            total += entry.diskBytes
        }
        #expect(store.totalBytes == total, "\(label)")
    }

    @Test(arguments: [ENOSPC, EDQUOT])
    func aDiskFullAtAnyWriteOfAFillIsRetriedOnceThenFailsCleanlyAndCachingResumes(code: Int32) throws {
        let faults = WriteFaults()
        let dryRun = TemporaryDirectory("disk-full")
        do {
            let store = try CacheStore.open(at: dryRun.path, configuration: configuration(faults.calls))
            faults.arm(at: Int.max, code: code, persistent: false)
            #expect(fill(store, "new") == nil)
        }
        let writes = faults.writesSinceArmed
        #expect(writes > 10)
        for persistent in [false, true] {
            for call in 1...writes {
                let label = "\(code == ENOSPC ? "ENOSPC" : "EDQUOT") at write \(call)\(persistent ? " on" : " once")"
                let directory = TemporaryDirectory("disk-full")
                do {
                    let store = try CacheStore.open(at: directory.path, configuration: configuration(faults.calls))
                    try store.put(key: "kept", offset: 0, bytes: origin.bytes(0, 30_000))
                    try store.setPinned(true, for: "kept")
                    try store.put(key: "spare", offset: 0, bytes: origin.bytes(0, 30_000))
                    faults.arm(at: call, code: code, persistent: persistent)
                    let failure = fill(store, "new")
                    if persistent {
                        #expect(failure?.code == .diskFull, "\(label): \(failure.map { "\($0)" } ?? "no error")")
                        #expect(store.space.diskFull, "\(label)")
                    } else {
                        #expect(failure == nil, "\(label): \(failure.map { "\($0)" } ?? "")")
                        #expect(!store.space.diskFull, "\(label)")
                    }
                    faults.clear()
                    try checkConsistent(store, label: label)
                    #expect(store.cachedBytes("kept", byteRange(0, 30_000)) == origin.bytes(0, 30_000), "\(label)")
                    // Space is free again: the next fills cache the rest, and another entry.
                    #expect(fill(store, "new") == nil, "\(label)")
                    #expect(fill(store, "more", length: 20_000) == nil, "\(label)")
                    #expect(!store.space.diskFull, "\(label)")
                    #expect(store.cachedBytes("new", byteRange(0, UInt64(Self.length))) == origin.bytes(0, Self.length), "\(label)")
                    try store.close()
                }
                let reopened = try CacheStore.open(at: directory.path, configuration: configuration())
                #expect(reopened.openReport.dropped.isEmpty, "\(label): \(reopened.openReport.dropped)")
                try checkConsistent(reopened, label: label + ", reopened")
                #expect(reopened.cachedBytes("new", byteRange(0, UInt64(Self.length))) == origin.bytes(0, Self.length), "\(label)")
            }
        }
    }

    @Test(.enabled(if: SmallFilesystem.isAvailable, "mounting a small tmpfs needs root"))
    func onASmallDiskTheStoreKeepsTheMinimumFreeByEvictingWhateverItsSizeLimit() throws {
        let disk = try SmallFilesystem(megabytes: 8)
        let store = try CacheStore.open(at: disk.path + "/store", configuration: configuration())
        let minimum = store.space.minimumFreeBytes
        #expect(minimum == 8 << 20 / 20)
        for index in 0..<24 {
            #expect(fill(store, "k\(index)", length: 1 << 20) == nil, "entry \(index)")
            let free = try #require(store.space.freeBytes)
            #expect(free + (64 << 10) >= minimum, "after entry \(index): \(free) bytes free")
        }
        #expect(store.statistics.evictions > 0)
        #expect(store.entry(for: "k23") != nil)
        try checkConsistent(store, label: "small disk")
    }

    @Test(.enabled(if: SmallFilesystem.isAvailable, "mounting a small tmpfs needs root"),
          arguments: [nil, UInt64(0)])
    func aFillLargerThanASmallDiskFailsWithDiskFullAndTheStoreRecovers(minimumFreeSpace: UInt64?) throws {
        let disk = try SmallFilesystem(megabytes: 8)
        let path = disk.path + "/store"
        do {
            let store = try CacheStore.open(at: path, configuration: configuration(minimumFreeSpace: minimumFreeSpace))
            #expect(fill(store, "kept", length: 1 << 20) == nil)
            try store.setPinned(true, for: "kept")
            let failure = fill(store, "huge", length: 12 << 20)
            #expect(failure?.code == .diskFull, "\(failure.map { "\($0)" } ?? "no error")")
            #expect(store.space.diskFull)
            try checkConsistent(store, label: "after the failed fill")
            // Dropped without closing, as by a crash.
        }
        // Someone else takes the last free byte.
        #expect(FileManager.default.createFile(atPath: disk.path + "/filler", contents: nil))
        let filler = try #require(FileHandle(forWritingAtPath: disk.path + "/filler"))
        while (try? filler.write(contentsOf: Data(count: 4096))) != nil {}
        try filler.close()
        let store = try CacheStore.open(at: path, configuration: configuration(minimumFreeSpace: minimumFreeSpace))
        try checkConsistent(store, label: "reopened on a full disk")
        #expect(store.cachedBytes("kept", byteRange(0, 1 << 20)) == origin.bytes(0, 1 << 20))
        try FileManager.default.removeItem(atPath: disk.path + "/filler")
        try store.remove(key: "huge")
        #expect(fill(store, "after", length: 1 << 20) == nil, "caching resumes once space is free")
        #expect(!store.space.diskFull)
        try store.close()
    }
}
