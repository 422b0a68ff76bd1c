import CacheProxy
import CacheStore
import Testing
import TestSupport

/// How playlists are fetched: shared among concurrent requests, through redirects, and with
/// every URI rewritten (multivariant playlists' freshness: PlaylistFreshnessTests).
@Suite("Playlist fetches: shared, fresh, redirected", .timeLimit(.minutes(2)))
struct PlaylistFetchTests {
    static let playlist = "application/vnd.apple.mpegurl"

    static let multivariant = Array("""
        #EXTM3U
        #EXT-X-STREAM-INF:BANDWIDTH=800000
        low/index.m3u8

        """.utf8)

    /// `count` requests for `path` at once, made while the origin holds the first one's body:
    /// they must all be answered from that one fetch.
    private func concurrentRequests(_ harness: ProxyHarness, _ path: String, count: Int, gate: TestGate) async throws -> [[UInt8]] {
        let requests = (0..<count).map { _ in StreamingRequest(harness, path) }
        try await waitUntil("the origin holds the first fetch and every request has arrived") {
            gate.arrivals >= 1 && (harness.proxy.status?.traffic.requests ?? 0) >= UInt64(count)
        }
        gate.open()
        var bodies: [[UInt8]] = []
        for request in requests { bodies.append(try await request.body()) }
        return bodies
    }

    @Test("Concurrent requests for a live playlist share one fetch", arguments: [false, true])
    func concurrentShareOneFetch(multivariant: Bool) async throws {
        try await ProxyHarness.run { harness in
            let gate = TestGate()
            let body = multivariant ? Self.multivariant : PlaylistTests.media(["1.ts", "2.ts"], endList: false)
            harness.origin.set("/p.m3u8", .init(body, contentType: Self.playlist, faults: .init(chunkSize: 16, pauseAfter: 16, gate: gate)))
            let bodies = try await concurrentRequests(harness, "/p.m3u8", count: 6, gate: gate)
            let expected = multivariant ? harness.proxyURL("/low/index.m3u8") : harness.proxyURL("/2.ts")
            #expect(bodies.allSatisfy { String(decoding: $0, as: UTF8.self).contains(expected) })
            #expect(Set(bodies).count == 1)
            #expect(harness.origin.requests(for: "/p.m3u8").count == 1)
        }
    }

    @Test("Redirects are followed, up to 5", arguments: [1, 5, 6])
    func redirects(hops: Int) async throws {
        try await ProxyHarness.run { harness in
            let body = TestBytes(seed: 61).bytes(0, 100_000)
            harness.origin.set("/real.ts", .init(body))
            for hop in 0..<hops { harness.origin.set("/hop\(hop).ts", .redirect(to: hop + 1 == hops ? "/real.ts" : "/hop\(hop + 1).ts")) }
            let response = try await harness.get("/hop0.ts", headers: [("Range", "bytes=1000-1999")])
            if hops <= 5 {
                #expect(response.status == 206)
                #expect(response.body == Array(body[1000..<2000]))
                #expect(harness.origin.requests(for: "/real.ts").map(\.range) == ["bytes=1000-1999"])
            } else {
                #expect(response.status == 502)
                #expect(harness.origin.requests(for: "/real.ts").isEmpty)
            }
        }
    }

    @Test("A redirected playlist's relative URIs resolve against the URL it was finally fetched from")
    func redirectedPlaylistResolvesAgainstTheFinalURL() async throws {
        try await ProxyHarness.run { harness in
            harness.origin.set("/old/index.m3u8", .redirect(to: "/new/index.m3u8"))
            harness.origin.set("/new/index.m3u8", .init(PlaylistTests.media(["a.ts"]), contentType: Self.playlist))
            harness.origin.set("/new/a.ts", .init(TestBytes(seed: 62).bytes(0, 1000)))
            for round in ["fetched", "served from the cache"] {
                let text = String(decoding: try await harness.get("/old/index.m3u8").body, as: UTF8.self)
                #expect(text.contains(harness.proxyURL("/new/a.ts")), "\(round)")
                #expect(!text.contains(harness.proxyURL("/old/a.ts")), "\(round)")
            }
            // Prefetching from the cached copy warms the segment where it is.
            _ = try await PrefetchTests.post(harness, #"{"urls": ["\#(harness.origin.url("/old/index.m3u8"))"], "segments": 1}"#)
            #expect(try await PrefetchTests.settle(harness).jobs.map(\.state) == [.done])
            #expect(harness.origin.requests(for: "/new/a.ts").count == 1)
            #expect(harness.origin.requests(for: "/old/a.ts").isEmpty)
        }
    }

    @Test("Rendition reports, parts and preload hints of a low-latency playlist are rewritten")
    func renditionReportsRewritten() async throws {
        try await ProxyHarness.run { harness in
            let text = """
                #EXTM3U
                #EXT-X-VERSION:9
                #EXT-X-TARGETDURATION:4
                #EXT-X-PART-INF:PART-TARGET=1.0
                #EXT-X-MEDIA-SEQUENCE:10
                #EXTINF:4.0,
                s10.mp4
                #EXT-X-PART:DURATION=1.0,URI="s11.part0.mp4"
                #EXT-X-PRELOAD-HINT:TYPE=PART,URI="s11.part1.mp4"
                #EXT-X-RENDITION-REPORT:URI="../alt/index.m3u8",LAST-MSN=11,LAST-PART=0

                """
            harness.origin.set("/ll/index.m3u8", .init(Array(text.utf8), contentType: Self.playlist))
            let served = String(decoding: try await harness.get("/ll/index.m3u8").body, as: UTF8.self)
            #expect(served.contains("#EXT-X-RENDITION-REPORT:URI=\"\(harness.proxyURL("/alt/index.m3u8"))\",LAST-MSN=11,LAST-PART=0"))
            #expect(served.contains("URI=\"\(harness.proxyURL("/ll/s11.part0.mp4"))\""))
            #expect(served.contains("URI=\"\(harness.proxyURL("/ll/s11.part1.mp4"))\""))
            #expect(!served.contains("../alt"))
        }
    }
}
