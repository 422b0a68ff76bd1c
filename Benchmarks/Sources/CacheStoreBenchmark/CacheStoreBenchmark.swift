import BenchmarkSupport
import CacheStore
import SparseFile
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The store's goals (Docs/BENCHMARKS.md, "CacheStore"). Exits 1 when one is missed.
@main
enum CacheStoreBenchmark {
    static func main() async throws {
        let root = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "/tmp/cachestore-bench-\(getpid())"
        mkdir(root, 0o755)
        defer { ScratchDirectory.remove(root) }
        var targets: [Target] = []
        var comparisons: [Comparison] = []
        targets += try openAndEvict(directory: root + "/ten-thousand")
        targets.append(try planLatency(directory: root + "/plan"))
        targets += try await followerLatency(directory: root + "/follow")
        comparisons.append(try hitReadThroughput(directory: root + "/hit"))
        print("")
        for target in targets { print(target.line()) }
        for comparison in comparisons { print(comparison.line()) }
        let failed = targets.filter { !$0.passes }.count + comparisons.filter { !$0.passes }.count
        print(failed == 0 ? "\nall goals met" : "\n\(failed) goal(s) missed")
        exit(failed == 0 ? 0 : 1)
    }

    static var configuration: CacheStoreConfiguration {
        CacheStoreConfiguration(maximumSize: 64 << 30, fileOptions: SparseFileOptions(durability: .none),
                                accessFlushInterval: .seconds(3600))
    }

    /// Opening a store of 10,000 entries (< 300 ms), then evicting 1,000 of them (< 200 ms).
    static func openAndEvict(directory: String) throws -> [Target] {
        let count = 10_000
        let store = try CacheStore.open(at: directory, configuration: configuration)
        let payload = ScratchDirectory.randomBytes(count: 2048, seed: 1)
        for index in 0..<count {
            try store.put(key: "https://cdn.example/video/\(index)/segment.ts", offset: 0, bytes: payload,
                          metadata: EntryMetadata(contentLength: 2048, contentType: "video/mp2t"))
        }
        try store.close()
        let openTime = try Measurement.median(repetitions: 5) {
            let reopened = try CacheStore.open(at: directory, configuration: configuration, readOnly: true)
            precondition(reopened.entries.count == count)
        }
        // Informational: the same open when the saved index is gone and every header is read.
        unlink(directory + "/index")
        let rebuild = try Measurement.seconds {
            let reopened = try CacheStore.open(at: directory, configuration: configuration)
            precondition(reopened.openReport.rebuiltFromHeaders == count)
            try reopened.close()
        }
        print("open of \(count) entries without a saved index (every header read): \(format(rebuild * 1000)) ms")

        let evicting = try CacheStore.open(at: directory, configuration: configuration)
        let perEntry = evicting.totalBytes / UInt64(count)
        var removed = 0
        let evictTime = try Measurement.seconds {
            removed = try evicting.evict(toSize: evicting.totalBytes - perEntry * 1000).removedKeys.count
        }
        precondition(removed == 1000, "evicted \(removed)")
        try evicting.close()
        return [
            Target(name: "open a store of \(count) entries (saved index)", value: openTime * 1000, unit: "ms", limit: 300),
            Target(name: "evict 1,000 of \(count) entries", value: evictTime * 1000, unit: "ms", limit: 200),
        ]
    }

    /// `plan` on a warm entry (< 2 µs).
    static func planLatency(directory: String) throws -> Target {
        let store = try CacheStore.open(at: directory, configuration: configuration)
        let key = "https://cdn.example/movie.mp4"
        let payload = ScratchDirectory.randomBytes(count: 1 << 20, seed: 2)
        for offset in stride(from: 0, to: 64 << 20, by: 2 << 20) {  // 32 separate 1 MiB ranges
            try store.put(key: key, offset: UInt64(offset), bytes: payload, metadata: EntryMetadata(contentLength: 64 << 20))
        }
        let probes = (0..<100_000).map { _ in ByteRange(offset: UInt64.random(in: 0..<(63 << 20)), length: 65_536)! }
        var pieces = 0
        let time = Measurement.median(repetitions: 5) {
            for probe in probes { pieces &+= store.plan(key: key, range: probe).pieces.count }
        }
        precondition(pieces > 0)
        try store.close()
        return Target(name: "plan on a warm entry (32 ranges, 64 KiB probe)", value: time / Double(probes.count) * 1e6, unit: "µs", limit: 2)
    }

    /// A follower receiving each chunk of a fill (< 1 ms from the write, median and p99).
    static func followerLatency(directory: String) async throws -> [Target] {
        let store = try CacheStore.open(at: directory, configuration: configuration)
        let chunk = 64 * 1024
        let chunks = 1000
        let claim = try store.claim(key: "live", range: ByteRange(offset: 0, length: UInt64(chunk * chunks))!)
        guard let fill = claim.fills.first else { fatalError("nothing to fill") }
        try fill.start(EntryMetadata(contentLength: UInt64(chunk * chunks)))
        let writeTimes = Mutex([Double](repeating: 0, count: chunks))
        let payload = ScratchDirectory.randomBytes(count: chunk, seed: 3)
        let follower = Task {
            var latencies: [Double] = []
            let reader = store.reader(for: "live")
            var position: UInt64 = 0
            while position < UInt64(chunk * chunks) {
                let available = try await reader.waitForBytes(at: position)
                let seen = Measurement.now()
                let index = Int(position) / chunk
                latencies.append(seen - writeTimes.withLock { $0[index] })
                position += available
            }
            return latencies
        }
        for index in 0..<chunks {
            try await Task.sleep(for: .microseconds(500))
            writeTimes.withLock { $0[index] = Measurement.now() }
            try payload.withUnsafeBytes { _ = try fill.write($0) }
        }
        try fill.finish()
        let latencies = try await follower.value.map { $0 * 1000 }
        try store.close()
        return [
            Target(name: "follower latency from write, median (\(latencies.count) chunks)", value: percentile(latencies, 0.5), unit: "ms", limit: 1),
            Target(name: "follower latency from write, p99", value: percentile(latencies, 0.99), unit: "ms", limit: 1),
        ]
    }

    /// Reading a cached 2 MB entry through the store vs raw `pread` of the same bytes (≥ 0.9×).
    static func hitReadThroughput(directory: String) throws -> Comparison {
        let store = try CacheStore.open(at: directory, configuration: configuration)
        let size = 2_000_000
        let payload = ScratchDirectory.randomBytes(count: size, seed: 4)
        try store.put(key: "segment", offset: 0, bytes: payload, metadata: EntryMetadata(contentLength: UInt64(size)))
        let raw = RawFile(path: directory + "/raw.bin", create: true)
        payload.withUnsafeBytes { raw.write($0, at: 0) }
        let reader = store.reader(for: "segment")
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let rounds = 200
        func readThroughStore() throws {
            try buffer.withUnsafeMutableBytes { bytes in
                for _ in 0..<rounds {
                    var offset = 0
                    while offset < size {
                        let count = min(bytes.count, size - offset)
                        guard try reader.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[0..<count]), at: UInt64(offset)) == .complete else {
                            fatalError("miss")
                        }
                        offset += count
                    }
                }
            }
        }
        func readRaw() {
            buffer.withUnsafeMutableBytes { bytes in
                for _ in 0..<rounds {
                    var offset = 0
                    while offset < size {
                        let count = min(bytes.count, size - offset)
                        raw.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[0..<count]), at: UInt64(offset))
                        offset += count
                    }
                }
            }
        }
        try readThroughStore()  // the first read verifies every block
        // Alternating runs, so that a noisy stretch of a shared machine hits both sides alike.
        var storeSamples: [Double] = []
        var rawSamples: [Double] = []
        for _ in 0..<9 {
            storeSamples.append(try Measurement.seconds { try readThroughStore() })
            rawSamples.append(Measurement.seconds { readRaw() })
        }
        let storeTime = Measurement.median(of: storeSamples)
        let rawTime = Measurement.median(of: rawSamples)
        raw.close()
        try store.close()
        let megabytes = Double(size * rounds) / 1e6
        return Comparison(name: "cache hit read through the store, 64 KiB reads", unit: "MB/s", baseline: megabytes / rawTime,
                          candidate: megabytes / storeTime, higherIsBetter: true, goal: 0.9, goalText: ">= 0.9x")
    }
}
