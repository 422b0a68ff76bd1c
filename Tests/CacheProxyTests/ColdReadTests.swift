import CacheProxy
import CacheProxyServer
import CacheStore
import Foundation
import SparseFile
import Synchronization
import Testing
import TestSupport

/// Cached bytes whose pages left memory are read on the cold-read threads, checked against their
/// checksums again, and never make an event loop wait for the disk
/// (`CacheProxyConfiguration.coldReadThreads`). The store lives in the system's temporary
/// directory, which must be on a disk (not tmpfs) for pages to leave memory.
@Suite("Cold reads: cached bytes no longer in memory", .timeLimit(.minutes(2)))
struct ColdReadTests {
    static let segment = TestBytes(seed: 91).bytes(0, 2_000_000)
    static let small = TestBytes(seed: 92).bytes(0, 300_000)

    /// The page-cache answers of a disk whose files, those named by ``onDisk``, all look out
    /// of memory; it counts the questions asked about them.
    final class ReportedResidency: Sendable {
        private struct State {
            var onDisk: String?
            var questions: [(UInt64, UInt64)] = []
            var counted: String?
        }

        private let state = Mutex(State())

        /// Files whose path contains `text` look out of memory (nil: the kernel's answers).
        func report(onDisk text: String?) { state.withLock { $0.onDisk = text } }
        /// Counts the questions about files whose path contains `text` from now on.
        func count(_ text: String) { state.withLock { $0.counted = text; $0.questions = [] } }
        var questions: Int { state.withLock { $0.questions.count } }
        var asked: String { state.withLock { "\($0.questions)" } }

        func calls(over base: SystemCalls) -> SystemCalls {
            var calls = base
            calls.cachedPages = { [self] descriptor, offset, length in
                let path = CallBlocker.path(of: descriptor)
                let onDisk = state.withLock { state -> Bool in
                    if let counted = state.counted, path.contains(counted) { state.questions.append((offset, length)) }
                    return state.onDisk.map { path.contains($0) } ?? false
                }
                return onDisk ? 0 : base.cachedPages(descriptor, offset, length)
            }
            return calls
        }
    }

    /// Fills the cache with `body` at `path` and waits until its file is complete and committed;
    /// returns the file's path.
    static func filled(_ harness: ProxyHarness, _ path: String, _ body: [UInt8]) async throws -> String {
        harness.origin.set(path, .init(body, contentType: "video/mp2t"))
        let miss = try await harness.get(path)
        let intact = miss.status == 200 && sameBytes(miss.body, body)
        try #require(intact)
        let key = harness.store.key(for: harness.origin.url(path))
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if let file = harness.store.reader(for: key).file, file.isComplete, !file.hasUncommittedChanges { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        let name = try #require(harness.store.entry(for: key)?.fileName)
        return harness.store.directory + "/entries/" + name
    }

    static func coldReads(_ harness: ProxyHarness) -> UInt64 { harness.proxy.status?.traffic.coldReads ?? 0 }

    /// A GET of `path` (of `range` when given) on a new connection: a connection remembers for a
    /// second which bytes it found in memory (`ResidencyMemo`), a new one asks the kernel.
    /// Whether the response is the one for those bytes of `body`.
    static func freshGet(_ harness: ProxyHarness, _ path: String, _ body: [UInt8], range: Range<Int>? = nil) async throws -> Bool {
        let connection = try RawConnection(port: harness.port)
        let field = range.map { "Range: bytes=\($0.lowerBound)-\($0.upperBound - 1)\r\n" } ?? ""
        connection.send("GET /proxy?url=\(percentEncoded(harness.origin.url(path))) HTTP/1.1\r\nHost: \(harness.host)\r\n\(field)\r\n")
        guard let response = await connection.readResponse(timeout: .seconds(10)) else { return false }
        let wanted = range ?? 0..<body.count
        return response.status == (range == nil ? 200 : 206) && response.body.elementsEqual(body[wanted])
    }

    #if os(Linux)
    @Test("A hit whose pages left memory is read on a cold-read thread and served byte for byte",
          .needsPageCacheResidency, arguments: [true, false])
    func droppedPagesAreReadCold(rawRequests: Bool) async throws {
        // Mapped pages never leave memory by themselves while mapped: with nothing mapped the
        // hits go out with sendfile, which would read them from the disk inside the call.
        try await ProxyHarness.run(configure: { $0.mappedFiles.limit = 0 }) { harness in
            let file = try await Self.filled(harness, "/a.ts", Self.segment)
            #expect(try await Self.freshGet(harness, "/a.ts", Self.segment))
            try PageCache.drop(file)
            let before = Self.coldReads(harness)
            let connection = try RawConnection(port: harness.port)
            // A `Connection` list is not the plain form players send: SwiftNIO's decoder reads
            // the request, then the hit path behind it.
            let fields = rawRequests ? "" : "Connection: keep-alive, x-other\r\n"
            connection.send("GET /proxy?url=\(percentEncoded(harness.origin.url("/a.ts"))) HTTP/1.1\r\nHost: \(harness.host)\r\n"
                            + fields + "Range: bytes=1000000-1065535\r\n\r\n")
            let range = try #require(await connection.readResponse(timeout: .seconds(10)))
            #expect(range.status == 206 && range.body.elementsEqual(Self.segment[1_000_000..<1_065_536]))
            #expect(Self.coldReads(harness) > before, "the range was read on a cold-read thread")

            try PageCache.drop(file)
            #expect(try await Self.freshGet(harness, "/a.ts", Self.segment))
            #expect(harness.origin.requests(for: "/a.ts").count == 1, "served from the cache, not fetched again")
            let coldBytes = harness.proxy.status?.traffic.bytesReadCold ?? 0
            #expect(coldBytes >= 65_536 * 2)
            let metrics = try await MetricsScrape.fetch(harness)
            #expect(metrics["sparsecache_cold_read_bytes_total"] == Double(coldBytes))
        }
    }

    @Test("Pages beside the bytes asked for, out of memory, do not send hits on those bytes down the cold path",
          .needsPageCacheResidency)
    func neighboursOutOfMemoryDoNotMatter() async throws {
        try await ProxyHarness.run(configure: { $0.mappedFiles.limit = 0 }) { harness in
            let file = try await Self.filled(harness, "/a.ts", Self.segment)
            let wanted = 100_000..<165_536  // 64 KiB, on no page boundary
            #expect(try await Self.freshGet(harness, "/a.ts", Self.segment, range: wanted))
            let entry = try #require(harness.store.reader(for: harness.store.key(for: harness.origin.url("/a.ts"))).file)
            let bytes = try #require(ByteRange(offset: UInt64(wanted.lowerBound), length: UInt64(wanted.count)))
            let start = try #require(entry.verifiedRun(for: bytes)?.fileOffset)
            // Everything but the pages holding the wanted bytes leaves memory, as the kernel
            // reclaims pages no one reads.
            let firstPage = start / 4096 * 4096
            let pastLastPage = (start + bytes.length + 4095) / 4096 * 4096
            try PageCache.drop(file, offset: 0, length: firstPage)
            try PageCache.drop(file, offset: pastLastPage)
            let rawHits = { harness.proxy.status?.traffic.hitsFromRawRequests ?? 0 }
            let before = (cold: Self.coldReads(harness), raw: rawHits())
            for _ in 0..<3 { #expect(try await Self.freshGet(harness, "/a.ts", Self.segment, range: wanted)) }
            #expect(rawHits() == before.raw + 3, "hits on bytes in memory are answered on the event loop")
            #expect(Self.coldReads(harness) == before.cold)
            #expect(entry.verifiedRun(for: bytes) != nil, "and their blocks stay verified")
        }
    }

    @Test("A block changed on disk after it was verified is fetched again once its pages left memory, never served",
          .needsPageCacheResidency)
    func damageOnDiskIsCaught() async throws {
        try await ProxyHarness.run(configure: { $0.mappedFiles.limit = 0 }) { harness in
            let file = try await Self.filled(harness, "/a.ts", Self.segment)
            #expect(try await Self.freshGet(harness, "/a.ts", Self.segment))  // verified now
            let entry = try #require(harness.store.reader(for: harness.store.key(for: harness.origin.url("/a.ts"))).file)
            let damaged = try #require(ByteRange(offset: 1_500_000, length: 1))
            let fileOffset = try #require(entry.verifiedRun(for: damaged)?.fileOffset)
            try PageCache.damageOnDisk(file, at: fileOffset)

            #expect(try await Self.freshGet(harness, "/a.ts", Self.segment), "the changed byte was not served")
            #expect(harness.origin.requests(for: "/a.ts").count == 2, "the damaged block was fetched again")
            #expect(entry.corruptBlocksDetected >= 1)
            #expect(try await Self.freshGet(harness, "/a.ts", Self.segment, range: 1_499_000..<1_501_000))
        }
    }
    #endif

    @Test("A hit on a mapped file whose pages the kernel reports gone is read cold, not written from the mapping")
    func mappedHitOutOfMemoryIsReadCold() async throws {
        let residency = ReportedResidency()
        try await ProxyHarness.run(systemCalls: residency.calls(over: .live)) { harness in
            let file = try await Self.filled(harness, "/a.ts", Self.segment)
            for _ in 0..<3 { #expect(try await Self.freshGet(harness, "/a.ts", Self.segment)) }
            residency.report(onDisk: (file as NSString).lastPathComponent)
            let before = Self.coldReads(harness)
            #expect(try await Self.freshGet(harness, "/a.ts", Self.segment, range: 0..<100_000))
            #expect(Self.coldReads(harness) > before)
            residency.report(onDisk: nil)
        }
    }

    @Test("While a read waits for the disk, the other connections of its event loop are served")
    func aSlowDiskHoldsUpNoOtherConnection() async throws {
        let residency = ReportedResidency()
        let blocker = CallBlocker()
        try await ProxyHarness.run(
            configure: {
                $0.threads = 1
                $0.coldReadThreads = 1
            },
            systemCalls: residency.calls(over: blocker.calls)
        ) { harness in
            let slow = try await Self.filled(harness, "/slow.ts", Self.small)
            _ = try await Self.filled(harness, "/fast.ts", Self.segment)
            #expect(try await Self.freshGet(harness, "/fast.ts", Self.segment))
            let name = (slow as NSString).lastPathComponent
            residency.report(onDisk: name)
            blocker.arm(.read(pathContaining: name))
            async let slowResponse = harness.get("/slow.ts")
            var released = false
            defer { if !released { blocker.release() } }
            #expect(await blocker.stopped(withinSeconds: 10), "the slow file's read reached the disk")
            // The one event loop must answer another connection while that read waits.
            let started = ContinuousClock.now
            #expect(try await Self.freshGet(harness, "/fast.ts", Self.segment, range: 0..<65_536))
            #expect(ContinuousClock.now - started < .seconds(5))
            blocker.release()
            released = true
            let response = try await slowResponse
            let intact = response.status == 200 && sameBytes(response.body, Self.small)
            #expect(intact)
            residency.report(onDisk: nil)
        }
    }

    @Test("Hits on bytes seen in memory within the last second ask the kernel once a second, not once per hit")
    func residencyIsRememberedForASecond() async throws {
        let residency = ReportedResidency()
        try await ProxyHarness.run(systemCalls: residency.calls(over: .live)) { harness in
            let file = try await Self.filled(harness, "/a.ts", Self.segment)
            _ = try await harness.get("/a.ts")
            residency.count((file as NSString).lastPathComponent)
            let target = "/proxy?url=" + percentEncoded(harness.origin.url("/a.ts"))
            let connection = try RawConnection(port: harness.port)
            func hit() async -> Bool {
                connection.send("GET \(target) HTTP/1.1\r\nHost: \(harness.host)\r\nRange: bytes=65536-131071\r\n\r\n")
                guard let response = await connection.readResponse(timeout: .seconds(10)) else { return false }
                return response.status == 206 && response.body.elementsEqual(Self.segment[65_536..<131_072])
            }
            let started = ContinuousClock.now
            for _ in 0..<50 { #expect(await hit()) }
            // One question per second at most (a loaded machine may take over a second for them).
            let seconds = Int((ContinuousClock.now - started).components.seconds)
            #expect((1...seconds + 1).contains(residency.questions), "\(residency.asked) in \(seconds + 1) s")
            let asked = residency.questions
            try await Task.sleep(for: .milliseconds(1100))
            #expect(await hit())
            #expect(residency.questions == asked + 1, "a piece seen over a second ago is asked about again")
        }
    }

    @Test("No cold-read threads: bytes are read on the event loops, and nothing asks where they are")
    func disabled() async throws {
        let residency = ReportedResidency()
        try await ProxyHarness.run(configure: { $0.coldReadThreads = 0 }, systemCalls: residency.calls(over: .live)) { harness in
            let file = try await Self.filled(harness, "/a.ts", Self.segment)
            residency.count((file as NSString).lastPathComponent)
            residency.report(onDisk: (file as NSString).lastPathComponent)
            #expect(try await Self.freshGet(harness, "/a.ts", Self.segment, range: 0..<100_000))
            #expect(Self.coldReads(harness) == 0)
            #expect(residency.questions == 0)
        }
    }

    @Test("Cold-read threads below zero are refused")
    func negativeThreadsRefused() throws {
        let directory = TemporaryDirectory("cold")
        let store = try CacheStore.open(at: directory.path)
        defer { try? store.close() }
        var configuration = CacheProxyConfiguration.server
        configuration.coldReadThreads = -1
        #expect(throws: CacheProxyError.self) { try CacheProxy(store: store, configuration: configuration) }
    }
}
