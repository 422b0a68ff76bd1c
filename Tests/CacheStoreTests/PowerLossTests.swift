import Foundation
import Testing
import TestSupport
@testable import CacheStore
import SparseFile

/// A power failure at every system call while a store creates entry files (temporary file,
/// link), fills them and replaces its index (temporary file, rename): the store opens from
/// what the disk kept and never serves a wrong byte.
@Suite("Store power loss at every system call")
struct StorePowerLossTests {
    let origin = TestBytes(seed: 41)

    func configuration(_ durability: Durability, calls: SystemCalls? = nil) -> CacheStoreConfiguration {
        var options = SparseFileOptions(durability: durability, autoCommitInterval: 16_384)
        if let calls { options = SparseFileOptions(options, systemCalls: calls) }
        return CacheStoreConfiguration(maximumSize: 64 << 20, fileOptions: options, accessFlushInterval: .seconds(3600))
    }

    /// The workload on a store that already holds "kept": three new entries, more bytes for
    /// "kept", a clean close. Returns the directory the disk image after the failure went to.
    func run(_ durability: Durability, crashAt: Int, directory: TemporaryDirectory) throws -> (image: String, calls: Int) {
        let live = directory.file("live-\(crashAt)")
        do {
            let store = try CacheStore.open(at: live, configuration: configuration(durability))
            try store.put(key: "kept", offset: 0, bytes: origin.bytes(0, 50_000))
            try store.close()
        }
        let simulator = try PowerLossSimulator(directory: live, crashAtCall: crashAt, seed: UInt64(crashAt))
        do {
            let store = try CacheStore.open(at: live, configuration: configuration(durability, calls: simulator.calls))
            for (index, key) in ["a", "b", "c"].enumerated() {
                try store.put(key: key, offset: 0, bytes: origin.bytes(UInt64(index) * 1000, 40_000 + index * 5000))
            }
            try store.put(key: "kept", offset: 50_000, bytes: origin.bytes(50_000, 30_000))
            try store.close()
        } catch {
            #expect(simulator.hasCrashed, "only the injected EIO may end the workload: \(error)")
        }
        let image = directory.file("image-\(crashAt)")
        try simulator.materialize(into: image)
        try FileManager.default.removeItem(atPath: live)
        return (image, simulator.callCount)
    }

    @Test(arguments: [Durability.none, .ordered])
    func aPowerFailureAtAnyCallLeavesAStoreThatOpensAndServesOnlyTheOriginsBytes(durability: Durability) throws {
        let directory = TemporaryDirectory("store-power")
        let dryRun = try run(durability, crashAt: Int.max, directory: directory)
        #expect(dryRun.calls > 20)
        try FileManager.default.removeItem(atPath: dryRun.image)
        let starts = ["kept": UInt64(0), "a": 0, "b": 1000, "c": 2000]
        for crashAt in 1...dryRun.calls + 1 {
            let (image, _) = try run(durability, crashAt: crashAt, directory: directory)
            let store = try CacheStore.open(at: image, configuration: configuration(.none))
            for entry in store.entries {
                let file = try #require(store.reader(for: entry.key).file)
                let start = try #require(starts[entry.key])
                for range in file.cachedRanges {
                    if case .bytes(let bytes) = try file.read(range) {
                        #expect(origin.matches(bytes, at: start + range.offset), "wrong bytes in \(entry.key) \(range) (crash at \(crashAt))")
                    }
                }
            }
            // What was durable before the workload began survives it when commits sync.
            if durability != .none {
                #expect(store.cachedBytes("kept", byteRange(0, 50_000)) == origin.bytes(0, 50_000), "crash at \(crashAt)")
            }
            try store.close()
            try FileManager.default.removeItem(atPath: image)
        }
    }
}
