import Foundation
import Testing
import TestSupport
@testable import CacheStore
import SparseFile

@Suite("Eviction and accounting")
struct EvictionTests {
    let directory = TemporaryDirectory("store")

    func put(_ store: CacheStore, _ key: String, size: Int) throws {
        try store.put(key: key, offset: 0, bytes: originBytes(0, size), metadata: EntryMetadata(contentLength: UInt64(size)))
    }

    @Test func leastRecentlyUsedOrderSurvivesACleanRestart() throws {
        do {
            let store = try CacheStore.open(at: directory.path, configuration: testConfiguration())
            for key in ["a", "b", "c", "d"] { try put(store, key, size: 10_000) }
            _ = try store.claim(key: "b", range: byteRange(0, 10))
            _ = try store.claim(key: "a", range: byteRange(0, 10))
            try store.close()
        }
        let store = try CacheStore.open(at: directory.path, configuration: testConfiguration())
        #expect(store.entries.map(\.key) == ["a", "b", "d", "c"])
        let report = try store.evict(toSize: store.totalBytes - 1)
        #expect(report.removedKeys == ["c"])
        #expect(store.openReport.rebuiltFromHeaders == 0)
    }

    @Test func aRecordedHitCountsAndMakesTheEntryTheMostRecentlyUsed() throws {
        let store = try CacheStore.open(at: directory.path, configuration: testConfiguration())
        for key in ["a", "b", "c"] { try put(store, key, size: 10_000) }
        let hits = store.statistics.hits
        store.recordHit(key: "a")
        store.recordHit(key: "unknown")
        #expect(store.statistics.hits == hits + 2)
        #expect(store.entries.map(\.key) == ["a", "c", "b"])
        #expect(try store.evict(toSize: store.totalBytes - 1).removedKeys == ["b"])
    }

    @Test func theEntriesRevisionChangesWhenAnEntryComesOrGoesAndNotWhenItIsRead() throws {
        let store = try CacheStore.open(at: directory.path, configuration: testConfiguration())
        var revision = store.entriesRevision
        try store.put(key: "a", offset: 0, bytes: originBytes(0, 10_000), metadata: EntryMetadata(contentLength: 20_000, entityTag: "\"one\""))
        #expect(store.entriesRevision != revision, "created")
        revision = store.entriesRevision
        _ = store.cachedBytes("a", byteRange(0, 100))
        store.recordHit(key: "a")
        #expect(store.entriesRevision == revision, "read")
        // Fetching the missing half finds other validators at the origin.
        try store.put(key: "a", offset: 10_000, bytes: originBytes(10_000, 100, seed: 2),
                      metadata: EntryMetadata(contentLength: 20_000, entityTag: "\"other\""))
        #expect(store.entriesRevision != revision, "replaced by another representation")
        revision = store.entriesRevision
        _ = try store.remove(key: "a")
        #expect(store.entriesRevision != revision, "removed")
    }

    @Test func theSizeNeverExceedsTheMaximumAfterAWriteReturns() throws {
        let maximum: UInt64 = 1 << 20
        let store = try CacheStore.open(at: directory.path, configuration: testConfiguration(maximumSize: maximum))
        let low = UInt64(Double(maximum) * 0.8)
        var evictingWrites = 0
        for index in 0..<40 {
            let size = 60_000 + index * 1000
            let (before, evictionsBefore) = (store.totalBytes, store.statistics.evictions)
            try put(store, "k\(index)", size: size)
            #expect(store.totalBytes <= maximum)
            #expect(diskUsage(of: directory.path + "/entries") <= maximum)
            guard store.statistics.evictions > evictionsBefore else { continue }
            evictingWrites += 1
            // Evicting starts only when a write would pass the high watermark (100 %: the new
            // entry's header, blocks and checksum pages count too)…
            #expect(before + UInt64(size) > maximum - 8 * 4096, "write \(index) evicted at \(before) bytes")
            // …and goes down to the low one (80 %): the store then holds the newcomer and at most
            // 80 % (plus the block and header slack of the estimate), and no whole entry less.
            #expect(store.totalBytes <= low + 4 * 4096, "write \(index) left \(store.totalBytes) bytes")
            #expect(store.totalBytes + UInt64(size) > low - 4 * 4096, "write \(index) evicted too much: \(store.totalBytes) bytes left")
        }
        // 40 entries of 60-100 KB into 1 MiB: each eviction frees 20 %, room for two or three.
        #expect(evictingWrites >= 8 && evictingWrites <= 16, "\(evictingWrites) writes evicted")
    }

    @Test func anEntryBeingFilledIsNeverEvicted() throws {
        let store = try CacheStore.open(at: directory.path, configuration: testConfiguration(maximumSize: 1 << 20))
        let fill = try #require(try store.claim(key: "filling", range: byteRange(0, 400_000)).fills.first)
        try fill.start(EntryMetadata(contentLength: 400_000))
        try fill.write(originBytes(0, 200_000))
        // Least recently used from here on, and the store fills up many times over.
        for index in 0..<30 { try put(store, "filler\(index)", size: 100_000) }
        #expect(store.statistics.evictions > 10)
        #expect(store.entry(for: "filling") != nil)
        try fill.write(originBytes(200_000, 200_000))
        try fill.finish()
        #expect(store.cachedBytes("filling", byteRange(0, 400_000)) == originBytes(0, 400_000))
        // Once filled it is an ordinary entry, and the least recently used one.
        for index in 30..<40 { try put(store, "filler\(index)", size: 100_000) }
        #expect(store.entry(for: "filling") == nil)
    }

    @Test func pinnedEntriesSurviveEvictionUnderPressure() throws {
        let store = try CacheStore.open(at: directory.path, configuration: testConfiguration(maximumSize: 1 << 20))
        try put(store, "pinned", size: 200_000)
        try store.setPinned(true, for: "pinned")
        for index in 0..<30 { try put(store, "filler\(index)", size: 100_000) }
        #expect(store.entry(for: "pinned")?.pinned == true)
        #expect(store.cachedBytes("pinned", byteRange(0, 200_000)) == originBytes(0, 200_000))
        try store.setPinned(false, for: "pinned")
        for index in 30..<60 { try put(store, "filler\(index)", size: 100_000) }
        #expect(store.entry(for: "pinned") == nil)
    }

    @Test func pinningSurvivesARestartWithoutTheIndex() throws {
        do {
            let store = try CacheStore.open(at: directory.path, configuration: testConfiguration())
            try put(store, "p", size: 1000)
            try store.setPinned(true, for: "p")
            try store.setHeadLimit(500, for: "p")
        }
        try FileManager.default.removeItem(atPath: directory.path + "/index")
        let store = try CacheStore.open(at: directory.path, configuration: testConfiguration())
        #expect(store.entry(for: "p")?.pinned == true)
        #expect(store.entry(for: "p")?.headLimit == 500)
        #expect(store.openReport.rebuiltFromHeaders == 1)
    }

    @Test func expiredEntriesGoFirstAndReadAsMissing() throws {
        let store = try CacheStore.open(at: directory.path, configuration: testConfiguration(maximumSize: 1 << 20))
        try put(store, "old-but-fresh", size: 300_000)
        try put(store, "expiring", size: 300_000)
        try store.setTimeToLive(.milliseconds(1), for: "expiring")
        _ = try store.claim(key: "expiring", range: byteRange(0, 1))  // most recently used, yet expired
        Thread.sleep(forTimeInterval: 0.01)
        try put(store, "newcomer", size: 400_000)
        #expect(store.entry(for: "expiring") == nil)
        #expect(store.entry(for: "old-but-fresh") != nil)
        try put(store, "ttl", size: 10)
        try store.setTimeToLive(.milliseconds(1), for: "ttl")
        Thread.sleep(forTimeInterval: 0.01)
        #expect(store.plan(key: "ttl", range: byteRange(0, 10)).missing == [byteRange(0, 10)])
    }

    @Test func clearReportsTheBytesFreed() throws {
        let store = try CacheStore.open(at: directory.path, configuration: testConfiguration())
        for key in ["a", "b"] { try put(store, key, size: 50_000) }
        let total = store.totalBytes
        #expect(try store.clear() == total)
        #expect(store.totalBytes == 0)
        #expect(store.entries.isEmpty)
        #expect(diskUsage(of: directory.path + "/entries") == 0)
    }

    @Test func aFullStoreOfPinnedEntriesRefusesNewBytes() throws {
        let store = try CacheStore.open(at: directory.path, configuration: testConfiguration(maximumSize: 300_000))
        try put(store, "a", size: 200_000)
        try store.setPinned(true, for: "a")
        #expect(throws: CacheStoreError.storeFull) { try put(store, "b", size: 200_000) }
        #expect(store.totalBytes <= 300_000)
    }

    @Test func aHeadLimitStopsFillsAtTheLimitUntilLifted() throws {
        let store = try CacheStore.open(at: directory.path, configuration: testConfiguration())
        try store.put(key: "v", offset: 0, bytes: originBytes(0, 1000), metadata: EntryMetadata(contentLength: 5000))
        try store.setHeadLimit(1000, for: "v")
        let limited = try store.claim(key: "v", range: byteRange(0, 5000))
        #expect(limited.fills.isEmpty)
        try store.setHeadLimit(nil, for: "v")
        let grown = try store.claim(key: "v", range: byteRange(0, 5000))
        #expect(grown.fills.map(\.range) == [byteRange(1000, 4000)])
    }
}

/// Allocated bytes of every file under `path`.
func diskUsage(of path: String) -> UInt64 {
    var total: UInt64 = 0
    for name in FileManager.default.enumerator(atPath: path)?.compactMap({ $0 as? String }) ?? [] {
        var info = stat()
        if stat(path + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG { total += UInt64(info.st_blocks) * 512 }
    }
    return total
}
