import Foundation
import Testing
import TestSupport

/// A full disk never costs a client a byte: with the store on a filesystem smaller than what is
/// played, every response still carries the origin's bytes, the proxy says the disk is full,
/// and caching resumes once space is free.
@Suite("A full disk", .timeLimit(.minutes(2)))
struct DiskFullTests {
    @Test("Responses pass through from the origin when nothing more fits on the disk, and caching resumes once space is free",
          .enabled(if: SmallFilesystem.isAvailable, "mounting a small tmpfs needs root"))
    func passThrough() async throws {
        let filesystem = try SmallFilesystem(megabytes: 3)
        let log = CapturedLog()
        try await ProxyHarness.run(storeSize: 1 << 30, storeDirectory: filesystem.path + "/cache", logger: log.logger(level: .warning)) { harness in
            let bodies = (0..<6).map { TestBytes(seed: UInt64(100 + $0)).bytes(0, 2_000_000) }
            for (index, body) in bodies.enumerated() { harness.origin.set("/s\(index).ts", .init(body)) }
            // Whole segments, ranges, and two at once: more than the disk holds.
            for (index, body) in bodies.enumerated() {
                // Compared as a Bool: a failing comparison of two 2 MB arrays would compute their diff.
                let whole = try await harness.get("/s\(index).ts")
                let wholeIsIntact = whole.status == 200 && whole.body == body
                #expect(wholeIsIntact, "segment \(index)")
                let range = try await harness.get("/s\(index).ts", headers: [("Range", "bytes=1000000-1099999")])
                let rangeIsIntact = range.status == 206 && range.body.elementsEqual(body[1_000_000..<1_100_000])
                #expect(rangeIsIntact, "range of segment \(index)")
            }
            try await withThrowingTaskGroup { group in
                for index in [4, 5] {
                    group.addTask {
                        let response = try await harness.get("/s\(index).ts")
                        let intact = response.body == bodies[index]
                        #expect(intact, "segment \(index), fetched at once with another")
                    }
                }
                try await group.waitForAll()
            }
            let traffic = try #require(harness.proxy.status?.traffic)
            #expect(traffic.bytesPassedThrough > 0 && traffic.brokenResponses == 0)
            let warning = log.all.first { $0.level == .warning && $0.message.hasPrefix("the cache has no room") }
            #expect(warning?.message.contains("the disk is full") == true, "\(warning?.message ?? "no warning")")
            // Space comes back: resources are cached again. Idle keep-alive connections may still
            // hold the removed files open (their blocks stay allocated) until a response that
            // finds no room makes them let go, and the store measures free space again at most a
            // second after its last measurement: within a few seconds every new resource is
            // cached whole.
            try harness.store.clear()
            let store = harness.store
            var attempt = 0
            let cachedAgain = try await SessionClient.eventually(timeout: .seconds(10)) {
                attempt += 1
                let body = TestBytes(seed: 200 + UInt64(attempt)).bytes(0, 500_000)
                harness.origin.set("/after\(attempt).ts", .init(body))
                let intact = try await harness.get("/after\(attempt).ts").body == body
                #expect(intact)
                return store.reader(for: store.key(for: harness.origin.url("/after\(attempt).ts"))).file?.cachedLength(from: 0) == 500_000
            }
            #expect(cachedAgain, "caching resumes once space is free")
            // Room for the index the store saves when it closes.
            try store.clear()
        }
    }
}
