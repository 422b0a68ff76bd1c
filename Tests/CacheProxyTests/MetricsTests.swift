@testable import CacheProxy
import CacheProxyParsing
import CacheStore
import Foundation
import NIOHTTP1
import Testing
import TestSupport

@Suite("Prometheus metrics at GET /metrics")
struct MetricsTests {
    static let body = TestBytes(seed: 41).bytes(0, 200_000)

    @Test("The exposition passes promtool's check, with every metric the proxy documents", .timeLimit(.minutes(1)))
    func promtoolAcceptsIt() async throws {
        try await ProxyHarness.run { harness in
            harness.origin.set("/a.mp4", .init(Self.body, contentType: "video/mp4"))
            _ = try await harness.get("/a.mp4")
            let scrape = try await MetricsScrape.fetch(harness)
            let check = try scrape.promtoolCheck()
            #expect(check.status == 0, "promtool: \(check.output)")
            #expect(check.output.isEmpty, "promtool's lint: \(check.output)")
            for (name, type) in [
                ("sparsecache_requests_total", "counter"), ("sparsecache_cache_hits_total", "counter"),
                ("sparsecache_cache_misses_total", "counter"), ("sparsecache_bytes_served_total", "counter"),
                ("sparsecache_store_bytes", "gauge"), ("sparsecache_store_max_bytes", "gauge"), ("sparsecache_store_entries", "gauge"),
                ("sparsecache_evictions_total", "counter"), ("sparsecache_upstream_requests_total", "counter"),
                ("sparsecache_upstream_seconds", "histogram"), ("sparsecache_lane_waiting", "gauge"),
                ("sparsecache_breakers_open", "gauge"), ("sparsecache_prefetch_bytes_total", "counter"),
                ("sparsecache_cold_read_bytes_total", "counter"),
            ] {
                #expect(scrape.text.contains("# TYPE \(name) \(type)\n"), "\(name) is a \(type)")
                #expect(scrape.text.contains("# HELP \(name) "), "\(name) has a help text")
            }
        }
    }

    @Test("Requests, hits, misses, bytes, upstream requests and the store move as traffic does", .timeLimit(.minutes(1)))
    func countersFollowTraffic() async throws {
        try await ProxyHarness.run { harness in
            harness.origin.set("/a.mp4", .init(Self.body, contentType: "video/mp4"))
            let before = try await MetricsScrape.fetch(harness)
            #expect(before["sparsecache_store_entries"] == 0)
            #expect(try await harness.get("/a.mp4").body == Self.body)  // a miss
            #expect(try await harness.get("/a.mp4", headers: [("Range", "bytes=0-999")]).status == 206)  // a hit from raw bytes
            let notPlain = try RawConnection(port: harness.port)  // a hit behind the HTTP decoder
            notPlain.send("GET \(harness.proxyURL("/a.mp4").dropFirst("http://127.0.0.1:\(harness.port)".count)) HTTP/1.1\r\n"
                          + "Host: 127.0.0.1:\(harness.port)\r\nConnection: keep-alive, x-other\r\nRange: bytes=0-99\r\n\r\n")
            #expect(await notPlain.readResponse(timeout: .seconds(10))?.status == 206)
            #expect(try await harness.fetch("http://127.0.0.1:\(harness.port)/nothing-here").status == 404)
            let after = try await MetricsScrape.fetch(harness)
            #expect(after[#"sparsecache_requests_total{route="proxy",status="2xx"}"#] == 3)
            #expect(after[#"sparsecache_requests_total{route="other",status="4xx"}"#] == 1)
            #expect(after[#"sparsecache_requests_total{route="metrics",status="2xx"}"#] == 1)
            #expect(after["sparsecache_cache_misses_total"] == 1)
            #expect(after["sparsecache_cache_hits_total"] == 2)
            #expect(after[#"sparsecache_bytes_served_total{source="origin"}"#] == Double(Self.body.count))
            #expect(after[#"sparsecache_bytes_served_total{source="cache"}"#] == 1100)
            #expect(after[#"sparsecache_upstream_requests_total{lane="segment"}"#] == 1)
            #expect(after[#"sparsecache_upstream_seconds_count{lane="segment"}"#] == 1)
            #expect(after["sparsecache_store_entries"] == 1)
            #expect(try after.value("sparsecache_store_bytes") >= Double(Self.body.count))
            #expect(after["sparsecache_store_max_bytes"] == Double(256 << 20))
        }
    }

    @Test("A response of cached and fetched bytes is a miss whose cached part counts as from the cache", .timeLimit(.minutes(1)))
    func partialHit() async throws {
        try await ProxyHarness.run { harness in
            harness.origin.set("/a.mp4", .init(Self.body, contentType: "video/mp4"))
            _ = try await harness.get("/a.mp4", headers: [("Range", "bytes=0-49999")])
            let before = try await MetricsScrape.fetch(harness)
            #expect(try await harness.get("/a.mp4").body == Self.body)
            let after = try await MetricsScrape.fetch(harness)
            #expect(try after.value("sparsecache_cache_misses_total") - before.value("sparsecache_cache_misses_total") == 1)
            #expect(try after.value("sparsecache_cache_hits_total") == before.value("sparsecache_cache_hits_total"))
            let cacheSeries = #"sparsecache_bytes_served_total{source="cache"}"#, originSeries = #"sparsecache_bytes_served_total{source="origin"}"#
            let fromCache = try after.value(cacheSeries) - before.value(cacheSeries)
            let fromOrigin = try after.value(originSeries) - before.value(originSeries)
            #expect(fromCache == 50_000)
            #expect(fromOrigin == Double(Self.body.count - 50_000))
        }
    }

    @Test("Evictions, open breakers and prefetched bytes are counted", .timeLimit(.minutes(1)))
    func evictionsBreakersPrefetch() async throws {
        let down = try RefusingPort()
        let downPort = down.port
        try await ProxyHarness.run(storeSize: 1 << 20) { harness in
            for index in 0..<4 {
                harness.origin.set("/\(index).ts", .init(TestBytes(seed: UInt64(index)).bytes(0, 400_000)))
                _ = try await harness.get("/\(index).ts")
            }
            for _ in 0..<3 { _ = try await harness.fetch(harness.proxyURL(forOrigin: "http://127.0.0.1:\(downPort)/x.ts")) }
            PrefetchTests.publish("show", on: harness.origin, segments: 2)
            #expect(try await PrefetchTests.post(harness, #"{"urls": ["\#(harness.origin.url("/show/master.m3u8"))"], "segments": 1}"#).status == 202)
            let prefetched = try await PrefetchTests.settle(harness).bytesFetched
            let scrape = try await MetricsScrape.fetch(harness)
            #expect(try scrape.value("sparsecache_evictions_total") >= 1)
            #expect(scrape["sparsecache_breakers_open"] == 1)
            #expect(prefetched > 0)
            #expect(scrape["sparsecache_prefetch_bytes_total"] == Double(prefetched))
            down.release()  // held until here: the port must refuse for the whole test
        }
    }

    @Test("With metrics off, /metrics is not found and nothing is recorded", .timeLimit(.minutes(1)))
    func off() async throws {
        try await ProxyHarness.run(configure: { $0.recordsMetrics = false }) { harness in
            let response = try await harness.fetch("http://127.0.0.1:\(harness.port)/metrics")
            #expect(response.status == 404)
        }
    }
}

/// The `route` label comes from the path alone, so refused requests count where they were meant.
@Suite("The route label of sparsecache_requests_total")
struct RouteLabelTests {
    @Test("Paths map to their route", arguments: [
        ("/proxy?url=x", "proxy"), ("/proxy", "proxy"), ("/sessions/abc/index.m3u8?_HLS_msn=1", "session"),
        ("/sessions/abc/proxy?url=x", "session"), ("/sessions", "sessions"), ("/sessions/abc", "sessions"),
        ("/prefetch", "prefetch"), ("/downloads", "downloads"), ("/downloads/abc", "downloads"), ("/status", "status"), ("/debug/status", "status"), ("/metrics", "metrics"),
        ("/entries?url=x", "store"), ("/entries/pin", "store"), ("/evict", "store"),
        ("/", "other"), ("/proxyx", "other"), ("/metrics/x", "other"),
    ])
    func routes(target: String, route: String) {
        #expect(RouteLabel(target: target).name == route)
    }
}
