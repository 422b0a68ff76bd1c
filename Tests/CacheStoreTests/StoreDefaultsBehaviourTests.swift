#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TestSupport
@testable import CacheStore
import SparseFile

/// Documented defaults of the store that shape what a crash or a full volume costs: the access
/// times written every `accessFlushInterval`, and the free space kept on the volume.
@Suite("The store's documented defaults")
struct StoreDefaultsBehaviourTests {
    static func configuration(flushEvery interval: Duration) -> CacheStoreConfiguration {
        CacheStoreConfiguration(maximumSize: 64 << 20, fileOptions: SparseFileOptions(durability: .none), accessFlushInterval: interval)
    }

    /// What another process opening the store now (as after a crash of this one) reads as the
    /// entry's last access.
    static func lastAccessOnDisk(_ directory: String, key: String) throws -> UInt64? {
        let reader = try CacheStore.open(at: directory, readOnly: true)
        defer { try? reader.close() }
        return reader.entry(for: key)?.lastAccess
    }

    @Test("A hit's access time reaches the disk within one accessFlushInterval while the store stays open: a crash loses at most one interval")
    func accessTimesAreFlushedEveryInterval() async throws {
        let interval = Duration.seconds(1)
        let directory = TemporaryDirectory("flush")
        let store = try CacheStore.open(at: directory.path, configuration: Self.configuration(flushEvery: interval))
        defer { try? store.close() }
        let key = store.key(for: "http://o.example/a.ts")
        try store.put(key: key, offset: 0, bytes: originBytes(0, 1000), metadata: EntryMetadata(contentLength: 1000))
        try await waitUntil("the new entry is on disk", timeout: .seconds(5)) { try Self.lastAccessOnDisk(directory.path, key: key) != nil }
        // Wall-clock milliseconds: the hit's time must differ from the put's.
        try await Task.sleep(for: .milliseconds(5))
        store.recordHit(key: key)
        let touched = try #require(store.entry(for: key)?.lastAccess)
        let hit = ContinuousClock.now
        // The store stays open: only the periodic flush can write it (without it this waits in
        // vain and fails). That the hit itself writes nothing is accessTimesWaitForTheIntervalOrTheClose's
        // to check: with a 1 s interval a flush may fall between the hit and any look here.
        // The bound is loose because each look opens the store read-only, which takes seconds
        // beside the crash tests of the same run (14 s seen for one look).
        try await waitUntil("the hit's access time is on disk", timeout: .seconds(30), interval: .milliseconds(10)) {
            try Self.lastAccessOnDisk(directory.path, key: key) == touched
        }
        #expect(ContinuousClock.now - hit < interval * 30)
    }

    @Test("With a long accessFlushInterval the hit's access time stays in memory until the store closes, and close writes it")
    func accessTimesWaitForTheIntervalOrTheClose() throws {
        let directory = TemporaryDirectory("flush-long")
        let store = try CacheStore.open(at: directory.path, configuration: Self.configuration(flushEvery: .seconds(3600)))
        let key = store.key(for: "http://o.example/a.ts")
        try store.put(key: key, offset: 0, bytes: originBytes(0, 1000), metadata: EntryMetadata(contentLength: 1000))
        try store.saveIndex()
        let saved = try #require(try Self.lastAccessOnDisk(directory.path, key: key))
        usleep(5_000)
        store.recordHit(key: key)
        let touched = try #require(store.entry(for: key)?.lastAccess)
        #expect(touched > saved)
        #expect(try Self.lastAccessOnDisk(directory.path, key: key) == saved, "a crash now would lose the hit's time")
        try store.close()
        #expect(try Self.lastAccessOnDisk(directory.path, key: key) == touched, "a clean close writes it exactly")
    }

    @Test("The minimum free space defaults to 5 % of the volume, capped at 1 GiB", arguments: [
        (UInt64(10) << 30, UInt64(512) << 20), (UInt64(20) << 30, UInt64(1) << 30), (UInt64(2) << 40, UInt64(1) << 30), (UInt64(0), UInt64(0)),
    ])
    func minimumFreeSpaceDefault(volume: UInt64, minimum: UInt64) {
        #expect(CacheStoreConfiguration.defaultMinimumFreeSpace(volumeSize: volume) == minimum)
    }

    @Test("A store opened without minimumFreeSpace keeps the smaller of 1 GiB and 5 % of its real volume")
    func openStoreKeepsTheDefaultMinimum() throws {
        let directory = TemporaryDirectory("minimum-free")
        var volume = statvfs()
        try #require(statvfs(directory.path, &volume) == 0)
        let volumeBytes = UInt64(volume.f_blocks) * UInt64(volume.f_frsize)
        let store = try CacheStore.open(at: directory.path, configuration: testConfiguration())
        defer { try? store.close() }
        #expect(store.space.minimumFreeBytes == min(1 << 30, volumeBytes / 20))
    }
}
