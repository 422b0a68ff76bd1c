@testable import CacheProxy
import CacheProxyParsing
import Foundation
import Logging
import Synchronization
import Testing
import TestSupport

/// Defaults Docs/PROXY.md documents, checked on a proxy that runs on them (the harness changes
/// only its port, threads and breaker, and the breaker test puts the default back): each test
/// fails when the default or the behaviour behind it changes.
@Suite("The proxy's documented defaults", .timeLimit(.minutes(2)))
struct DocumentedDefaultsTests {
    @Test("A request head of 100 fields and under 32 KiB is served; 101 fields, or over 32 KiB, get 400 and the connection closes")
    func requestHeadLimits() async throws {
        try await ProxyHarness.run { harness in
            /// `GET /status` with `fields` header fields in all (Host included), each padded to `padding` bytes of value.
            func head(fields: Int, padding: Int = 8) -> String {
                var text = "GET /status HTTP/1.1\r\nHost: \(harness.host)\r\n"
                for index in 1..<fields { text += "X-Field-\(index): \(String(repeating: "v", count: padding))\r\n" }
                return text + "\r\n"
            }
            func answer(_ text: String) async throws -> (status: Int?, closed: Bool) {
                let connection = try RawConnection(port: harness.port)
                #expect(connection.send(text))
                let response = await connection.readResponse(timeout: .seconds(10))
                let (_, closed) = await connection.readUntilClosed(timeout: .seconds(2))
                return (response?.status, closed)
            }
            #expect(CacheProxyConfiguration.Limits().maximumHeaderCount == 100)
            #expect(CacheProxyConfiguration.Limits().maximumHeaderBytes == 32 * 1024)
            #expect(try await answer(head(fields: 100)).status == 200)
            let tooMany = try await answer(head(fields: 101))
            #expect(tooMany.status == 400 && tooMany.closed)
            // Three fields of 10,000 bytes (about 30 KiB in all) pass; four (about 40 KiB) do not.
            #expect(try await answer(head(fields: 4, padding: 10_000)).status == 200)
            let tooLarge = try await answer(head(fields: 5, padding: 10_000))
            #expect(tooLarge.status == 400 && tooLarge.closed)
        }
    }

    @Test("The express lane runs 16 fetches at once; a 17th waits")
    func expressLaneRunsSixteen() async throws {
        try await ProxyHarness.run { harness in
            let gate = TestGate()
            for index in 0..<17 {
                harness.origin.setResponder("/p\(index).m3u8") { _ in
                    await gate.wait()
                    return .init(Array("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\na.ts\n#EXT-X-ENDLIST\n".utf8),
                                 contentType: TestPresentation.playlistType)
                }
            }
            // One connection per request (an HTTP client's pool would hold them back).
            var connections: [RawConnection] = []
            for index in 0..<17 {
                let connection = try RawConnection(port: harness.port)
                let target = String(harness.proxyURL("/p\(index).m3u8").dropFirst("http://\(harness.host)".count))
                #expect(connection.send("GET \(target) HTTP/1.1\r\nHost: \(harness.host)\r\n\r\n"))
                connections.append(connection)
            }
            try await waitUntil("16 fetches run on the express lane and one waits") {
                guard let lane = harness.proxy.status?.express else { return false }
                return lane.active == 16 && lane.waiting == 1
            }
            #expect(harness.proxy.status?.express.capacity == 16)
            gate.open()
            for connection in connections {
                #expect(await connection.readResponse(timeout: .seconds(20))?.status == 200)
            }
        }
    }

    @Test("The breaker opens after 3 consecutive failures and lets a trial through after 10 s", .timeLimit(.minutes(1)))
    func breakerDefaults() async throws {
        let unreachable = try RefusingPort()
        let port = unreachable.port
        try await ProxyHarness.run(configure: { $0.breaker = CacheProxyConfiguration().breaker }) { harness in
            let url = harness.proxyURL(forOrigin: "http://127.0.0.1:\(port)/a.ts")
            for _ in 0..<2 { #expect(try await harness.fetch(url).status == 502) }
            #expect(harness.proxy.status?.breakers["127.0.0.1:\(port)"] != .open, "two failures leave it closed")
            #expect(try await harness.fetch(url).status == 502)
            let opened = ContinuousClock.now
            #expect(harness.proxy.status?.breakers["127.0.0.1:\(port)"] == .open, "the third opens it")
            let sent = try #require(harness.proxy.status?.traffic.upstreamRequests)
            // Two seconds before the cool-down ends, nothing goes to the origin.
            try await Task.sleep(until: opened + .seconds(8))
            #expect(try await harness.fetch(url).status == 502)
            #expect(harness.proxy.status?.traffic.upstreamRequests == sent, "still open 8 s after it opened")
            try await Task.sleep(until: opened + .seconds(10) + .milliseconds(200))
            _ = try await harness.fetch(url)
            #expect(harness.proxy.status?.traffic.upstreamRequests == sent + 1, "one trial once 10 s have passed")
        }
        unreachable.release()
    }

    @Test("sparsecache_open_connections counts the client connections open now")
    func openConnectionsGauge() async throws {
        try await ProxyHarness.run { harness in
            let baseline = try await MetricsScrape.fetch(harness).value("sparsecache_open_connections")
            #expect(baseline >= 1, "the scrape's own connection is open")
            var connections: [RawConnection] = []
            for _ in 0..<3 {
                let connection = try RawConnection(port: harness.port)
                #expect(connection.send("GET /status HTTP/1.1\r\nHost: \(harness.host)\r\n\r\n"))
                #expect(await connection.readResponse(timeout: .seconds(10))?.status == 200)
                connections.append(connection)
            }
            #expect(try await MetricsScrape.fetch(harness).value("sparsecache_open_connections") == baseline + 3)
            connections.removeAll()  // closes them
            var last = -1.0
            try await waitUntil("the gauge drops back") {
                last = try await MetricsScrape.fetch(harness).value("sparsecache_open_connections")
                return last == baseline
            }
            #expect(last == baseline)
        }
    }

    @Test("Preflights are approved for 10 minutes (Max-Age 600), and for private network access when Chrome asks")
    func preflightHeaders() async throws {
        let app = "https://app.example"
        try await ProxyHarness.run(configure: { $0.security.allowedOrigins = [app] }) { harness in
            let target = "http://127.0.0.1:\(harness.port)/status"
            let preflight = [("Origin", app), ("Access-Control-Request-Method", "GET")]
            let plain = try await harness.fetch(target, method: .OPTIONS, headers: preflight)
            #expect(plain.status == 204)
            #expect(plain.headers.first(name: "access-control-max-age") == "600")
            #expect(plain.headers["access-control-allow-private-network"].isEmpty, "only when asked")
            let privateNetwork = try await harness.fetch(target, method: .OPTIONS, headers: preflight + [("Access-Control-Request-Private-Network", "true")])
            #expect(privateNetwork.status == 204)
            #expect(privateNetwork.headers.first(name: "access-control-allow-private-network") == "true")
            #expect(privateNetwork.headers.first(name: "access-control-max-age") == "600")
        }
    }

    @Test("A host's addresses are looked up once and reused for the check of the requests that follow")
    func lookupsAreReused() async throws {
        let lookups = Mutex<[String]>([])
        let resolver = OriginResolver { host in
            lookups.withLock { $0.append(host) }
            return try await OriginResolver.system.addresses(host)
        }
        try await ProxyHarness.run(configure: { $0.security.resolver = resolver }) { harness async throws in
            for index in 0..<3 {
                harness.origin.set("/n\(index).ts", .init(TestBytes(seed: UInt64(index)).bytes(0, 1000)))
                let url = "http://localhost:\(harness.origin.port)/n\(index).ts"
                #expect(try await harness.fetch(harness.proxyURL(forOrigin: url)).status == 200)
            }
            #expect(harness.origin.requests.count == 3, "three misses went to the origin")
            #expect(lookups.withLock { $0 } == ["localhost"], "one lookup for the three")
        }
    }

    @Test("A host's looked-up addresses are reused for 30 s, no longer: a request after that looks the host up again",
          .timeLimit(.minutes(2)))
    func lookupsAreReusedForThirtySeconds() async throws {
        let lookups = Mutex<[ContinuousClock.Instant]>([])
        let resolver = OriginResolver { host in
            let addresses = try await OriginResolver.system.addresses(host)
            lookups.withLock { $0.append(.now) }
            return addresses
        }
        try await ProxyHarness.run(configure: { $0.security.resolver = resolver }) { harness async throws in
            func miss(_ index: Int) async throws {
                harness.origin.set("/t\(index).ts", .init(TestBytes(seed: UInt64(index)).bytes(0, 1000)))
                #expect(try await harness.fetch(harness.proxyURL(forOrigin: "http://localhost:\(harness.origin.port)/t\(index).ts")).status == 200)
            }
            try await miss(0)
            let answered = try #require(lookups.withLock { $0.first })
            // Well inside the 30 s: the answer is reused.
            try await Task.sleep(until: answered + .seconds(20))
            try await miss(1)
            #expect(lookups.withLock { $0.count } == 1, "reused 20 s after the lookup")
            // Past the 30 s (2 s of margin): looked up again.
            try await Task.sleep(until: answered + .seconds(32))
            try await miss(2)
            #expect(lookups.withLock { $0.count } == 2, "looked up again 32 s after the first lookup")
            #expect(harness.origin.requests.count == 3)
        }
    }

    @Test("The access log keeps at most 65,536 records waiting: past that, records are dropped and the count is logged")
    func accessLogDropsPastItsCapacity() async {
        #expect(AccessLog.capacity == 65_536)
        let captured = CapturedLog()
        let log = AccessLog(logger: captured.logger(level: .info))
        let start = ContinuousClock.now
        // The writer is not running: every record waits.
        for index in 0..<(AccessLog.capacity + 10) {
            log.append(AccessLogRecord(method: .GET, target: "/r\(index)", url: nil, status: 200, bodyBytes: 1, cache: nil,
                                       started: start, firstByte: start, ended: start))
        }
        log.finish()
        await log.run()
        let lines = captured.accessLines
        #expect(lines.count == AccessLog.capacity)
        #expect(lines.last?.contains("url=/r\(AccessLog.capacity - 1) ") == true, "the oldest are kept, the newest dropped")
        #expect(captured.all.contains { $0.level == .warning && $0.message == "access log: 10 lines dropped, the log could not keep up with the requests" })
    }
}
