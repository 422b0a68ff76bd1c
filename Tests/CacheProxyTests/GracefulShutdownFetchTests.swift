import CacheProxy
import CacheStore
import Synchronization
import Testing
import TestSupport

/// What a graceful shutdown does to the fetches in flight while another client's response
/// drains: a fetch whose client left is cancelled at once (it would otherwise go on for the
/// whole drain), one that a client is receiving, directly or as a follower, goes on.
@Suite("Fetches at a graceful shutdown", .timeLimit(.minutes(2)))
struct GracefulShutdownFetchTests {
    /// About 40 KB/s: a resource of 1 MB takes 25 s, far more than the test waits for a cancel.
    static let crawling = TestOrigin.Faults(chunkDelay: .milliseconds(100), chunkSize: 4_000)
    /// About 7 Mbit/s: a client receiving through it takes a second or two.
    static let throttled = TestOrigin.Faults(chunkDelay: .milliseconds(10), chunkSize: 8_750)
    /// Cached whole, and asked for by a client that stops reading: its response keeps the
    /// drain going for the whole grace period, unless the test closes it.
    static let heldOrigin = "http://127.0.0.1:9/held.mp4"
    static let held = TestBytes(seed: 342).bytes(0, 8 << 20)

    /// A proxy with a long grace period, logging to `log`, over a store holding ``held``.
    static func run(log: CapturedLog, _ body: (ProxyHarness) async throws -> Void) async throws {
        try await ProxyHarness.run(configure: { $0.shutdownGracePeriod = .seconds(60) }, logger: log.logger()) { harness in
            try harness.store.put(key: harness.store.key(for: heldOrigin), offset: 0, bytes: held,
                                  metadata: EntryMetadata(contentLength: UInt64(held.count), contentType: "video/mp4"))
            try await body(harness)
        }
    }

    /// A client that asks for ``held`` on a connection with a small receive buffer and never
    /// reads: a response in flight for as long as the connection stays open.
    static func stalledClient(_ harness: ProxyHarness) async throws -> RawConnection {
        let before = harness.store.statistics.hits
        let stalled = try RawConnection(port: harness.port, receiveBufferSize: 16 * 1024)
        stalled.send("GET /proxy?url=\(percentEncoded(heldOrigin)) HTTP/1.1\r\nHost: \(harness.host)\r\n\r\n")
        try await waitUntil("the stalled client's response started (its hit is counted)") { harness.store.statistics.hits > before }
        return stalled
    }

    /// Whether the access log has the line of a finished request for `path`.
    static func logged(_ log: CapturedLog, _ harness: ProxyHarness, _ path: String) -> Bool {
        log.accessLines.contains { $0.contains(percentEncoded(harness.origin.url(path))) || $0.contains(path) }
    }

    /// A client that GETs `path` through the proxy on a raw connection and has read its head
    /// and the first `count` bytes of its body; it hangs up when the connection is released.
    static func client(of path: String, _ harness: ProxyHarness, readingFirst count: Int) async throws -> RawConnection {
        let connection = try RawConnection(port: harness.port)
        connection.send("GET \("/proxy?url=" + percentEncoded(harness.origin.url(path))) HTTP/1.1\r\nHost: \(harness.host)\r\n\r\n")
        try #require(await connection.readHead(andBody: count, timeout: .seconds(30)), "the client received the first \(count) bytes")
        return connection
    }

    /// How the origin's response for `path` ended, once it did (a crawling one ends in 25 s
    /// when nothing cuts it).
    static func originOutcome(_ harness: ProxyHarness, _ path: String) async throws -> [TestOrigin.Outcome] {
        try await waitUntil("the origin's response for \(path) ended", timeout: .seconds(60)) { !harness.origin.outcomes(for: path).isEmpty }
        return harness.origin.outcomes(for: path)
    }

    /// The shutdown's line saying what it waits for and what it cancelled, once logged.
    static func shutdownLine(_ log: CapturedLog) async throws -> String {
        let isShutdownLine = { (entry: CapturedLog.Entry) in entry.message.hasPrefix("shutting down: waiting") }
        try await waitUntil("the shutdown's line is logged") { log.all.contains(where: isShutdownLine) }
        return log.all.first(where: isShutdownLine)?.message ?? ""
    }

    @Test("A fetch whose client left is cancelled at the shutdown signal, while another client's response drains; the log counts it")
    func orphanedFetchIsCancelledAtOnce() async throws {
        let log = CapturedLog()
        try await Self.run(log: log) { harness in
            let body = TestBytes(seed: 343).bytes(0, 1_000_000)
            harness.origin.set("/left.ts", .init(body, contentType: "video/mp2t", faults: Self.crawling))
            // The client reads the start, then hangs up: the rest is less than the orphan limit
            // (8 MiB), so without a shutdown the fetch would go on to the end.
            _ = try await Self.client(of: "/left.ts", harness, readingFirst: 20_000)
            try await waitUntil("the proxy saw the client leave (its request is logged)") { Self.logged(log, harness, "/left.ts") }
            #expect(harness.origin.outcomes(for: "/left.ts").isEmpty, "the orphaned fetch is still going")
            let stalled = try await Self.stalledClient(harness)
            harness.proxy.shutdownGracefully()
            #expect(try await Self.originOutcome(harness, "/left.ts") == [.abandoned], "cancelled, not fetched to the end")
            let key = harness.store.key(for: harness.origin.url("/left.ts"))
            let cached = harness.store.entry(for: key)?.cachedBytes ?? 0
            #expect(cached > 0 && cached < UInt64(body.count), "what it stored stays: \(cached) bytes")
            let line = try await Self.shutdownLine(log)
            #expect(line.contains("for 1 response in flight") && line.contains("1 fetch no client was receiving"), "\(line)")
            withExtendedLifetime(stalled) {}
        }
    }

    @Test("A client that leaves during the drain: its fetch is cancelled then, not at the end of the drain")
    func fetchOrphanedDuringTheDrainIsCancelled() async throws {
        let log = CapturedLog()
        try await Self.run(log: log) { harness in
            let body = TestBytes(seed: 344).bytes(0, 1_000_000)
            harness.origin.set("/late.ts", .init(body, contentType: "video/mp2t", faults: Self.crawling))
            let stalled = try await Self.stalledClient(harness)
            do {
                let leaving = try await Self.client(of: "/late.ts", harness, readingFirst: 20_000)
                harness.proxy.shutdownGracefully()
                _ = try await Self.shutdownLine(log)
                #expect(harness.origin.outcomes(for: "/late.ts").isEmpty, "the fetch of a client still receiving goes on")
                withExtendedLifetime(leaving) {}
            }  // the client hangs up here, during the drain
            #expect(try await Self.originOutcome(harness, "/late.ts") == [.abandoned], "cancelled, not fetched to the end")
            withExtendedLifetime(stalled) {}
        }
    }

    @Test("A playlist's background revalidation, which no client waits for, is cancelled at the signal: it saves nothing")
    func revalidationIsCancelledAtOnce() async throws {
        let log = CapturedLog()
        let directory = TemporaryDirectory("graceful-revalidation")
        let type = "application/vnd.apple.mpegurl"
        let old = Array("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000\na/index.m3u8\n".utf8)
        let key = Mutex<String?>(nil)
        try await ProxyHarness.run(
            configure: { $0.shutdownGracePeriod = .seconds(60); $0.playlistFreshness = .zero }, directory: directory, logger: log.logger()
        ) { harness in
            try harness.store.put(key: harness.store.key(for: Self.heldOrigin), offset: 0, bytes: Self.held,
                                  metadata: EntryMetadata(contentLength: UInt64(Self.held.count), contentType: "video/mp4"))
            harness.origin.set("/m.m3u8", .init(old, contentType: type, entityTag: "\"1\""))
            #expect(try await harness.get("/m.m3u8").status == 200)
            key.withLock { $0 = harness.store.key(for: harness.origin.url("/m.m3u8")) }
            // The playlist changed; the origin's answer to the revalidation stops after 10 bytes.
            let gate = TestGate()
            var changed = TestOrigin.Resource(Array("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=900000\nchanged/index.m3u8\n".utf8),
                                              contentType: type, entityTag: "\"2\"")
            changed.faults = TestOrigin.Faults(pauseAfter: 10, gate: gate)
            harness.origin.set("/m.m3u8", changed)
            #expect(try await harness.get("/m.m3u8").status == 200, "the stale copy, served at once")
            try await waitUntil("the revalidation is held at the origin") { gate.arrivals == 1 }
            let stalled = try await Self.stalledClient(harness)
            harness.proxy.shutdownGracefully()
            let line = try await Self.shutdownLine(log)
            #expect(line.contains("1 fetch no client was receiving"), "\(line)")
            gate.open()
            try await waitUntil("the origin sent the revalidation's answer (or found the proxy gone)") {
                harness.origin.outcomes(for: "/m.m3u8").count == 2
            }
            withExtendedLifetime(stalled) {}
        }
        // The proxy has stopped and every fetch has ended: a revalidation that had gone on would
        // have saved the changed playlist.
        let store = try CacheStore.open(at: directory.path)
        defer { try? store.close() }
        let entry = try #require(key.withLock { $0 }.flatMap { store.entry(for: $0) })
        #expect(entry.cachedBytes == UInt64(old.count), "the cached playlist is the one before the revalidation")
    }

    @Test("Fetches clients are receiving go on through a graceful shutdown: a client's own miss, and a follower whose leader left")
    func receivedFetchesGoOn() async throws {
        let log = CapturedLog()
        try await Self.run(log: log) { harness in
            let own = TestBytes(seed: 345).bytes(0, 1_500_000)
            let shared = TestBytes(seed: 346).bytes(0, 1_500_000)
            harness.origin.set("/own.ts", .init(own, contentType: "video/mp2t", faults: Self.throttled))
            harness.origin.set("/shared.ts", .init(shared, contentType: "video/mp2t", faults: Self.throttled))
            let stalled = try await Self.stalledClient(harness)
            let receiving = StreamingRequest(harness, "/own.ts")
            let follower: StreamingRequest
            do {
                let leader = try await Self.client(of: "/shared.ts", harness, readingFirst: 50_000)
                follower = StreamingRequest(harness, "/shared.ts")
                try await waitUntil("both clients have bytes") { receiving.received > 0 && follower.received >= 50_000 }
                withExtendedLifetime(leader) {}
            }  // the leader hangs up here; its follower keeps the fetch
            try await waitUntil("the proxy saw the leader leave (its request is logged)") { Self.logged(log, harness, "/shared.ts") }
            harness.proxy.shutdownGracefully()
            let receivedOwn = try await receiving.body()
            let followed = try await follower.body()
            #expect(receivedOwn == own, "the receiving client got all \(own.count) bytes (\(receivedOwn.count))")
            #expect(followed == shared, "the follower got all \(shared.count) bytes (\(followed.count))")
            #expect(harness.origin.requests(for: "/own.ts").count == 1)
            // The origin records how its answer ended once its last write is done, which may be
            // after the client had every byte (seen once in a full run).
            try await waitUntil("the origin recorded how its answer to /own.ts ended") { !harness.origin.outcomes(for: "/own.ts").isEmpty }
            #expect(harness.origin.outcomes(for: "/own.ts") == [.complete])
            #expect(harness.origin.requests(for: "/shared.ts").count == 1, "the followed fetch was not cut and fetched again")
            withExtendedLifetime(stalled) {}
        }
    }
}
