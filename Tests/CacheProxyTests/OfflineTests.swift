import CacheProxy
import CacheStore
import Testing
import TestSupport

@Suite("Offline serving and the circuit breaker", .timeLimit(.minutes(2)))
struct OfflineTests {
    static let segment = TestBytes(seed: 41).bytes(0, 200_000)

    @Test("With the origin gone, everything cached is served: VOD playlists, segments and ranges")
    func offline() async throws {
        try await ProxyHarness.run { harness in
            harness.origin.set("/v/index.m3u8", .init(PlaylistTests.media(["a.ts"]), contentType: "application/vnd.apple.mpegurl"))
            harness.origin.set("/v/a.ts", .init(Self.segment))
            let playlist = try await harness.get("/v/index.m3u8")
            _ = try await harness.get("/v/a.ts")
            await harness.origin.stop()
            let offlinePlaylist = try await harness.get("/v/index.m3u8")
            #expect(offlinePlaylist.status == 200)
            #expect(offlinePlaylist.body == playlist.body)
            #expect(try await harness.get("/v/a.ts").body == Self.segment)
            let range = try await harness.get("/v/a.ts", headers: [("Range", "bytes=-100")])
            #expect(range.status == 206)
            #expect(range.body == Array(Self.segment.suffix(100)))
            let missing = try await harness.get("/v/b.ts")
            #expect(missing.status == 502)
        }
    }

    @Test("A live playlist is served stale only when the origin is unreachable")
    func liveStale() async throws {
        try await ProxyHarness.run { harness in
            harness.origin.set("/live.m3u8", .init(PlaylistTests.media(["1.ts"], endList: false), contentType: "application/vnd.apple.mpegurl"))
            let online = try await harness.get("/live.m3u8")
            await harness.origin.stop()
            let stale = try await harness.get("/live.m3u8")
            #expect(stale.status == 200)
            #expect(stale.body == online.body)
            #expect(harness.proxy.status?.traffic.stalePlaylistsServed == 1)
        }
    }

    @Test("A live playlist whose origin fails with 5xx is served stale too")
    func liveStaleOn5xx() async throws {
        try await ProxyHarness.run { harness in
            harness.origin.set("/live.m3u8", .init(PlaylistTests.media(["1.ts"], endList: false), contentType: "application/vnd.apple.mpegurl"))
            let online = try await harness.get("/live.m3u8")
            harness.origin.update("/live.m3u8") { $0.faults.status = 503 }
            #expect(try await harness.get("/live.m3u8").body == online.body)
        }
    }

    @Test("The breaker opens after consecutive connection failures and answers at once, sending nothing to the origin")
    func breakerOpens() async throws {
        let unreachable = try RefusingPort()
        let port = unreachable.port
        // A cool-down no test run outlasts: every request below finds the breaker open.
        try await ProxyHarness.run(configure: {
            $0.breaker = CircuitBreakerConfiguration(failureThreshold: 2, coolDown: .seconds(600))
        }) { harness in
            let url = "http://127.0.0.1:\(port)/a.ts"
            for _ in 0..<2 { #expect(try await harness.fetch(harness.proxyURL(forOrigin: url)).status == 502) }
            #expect(harness.proxy.status?.breakers["127.0.0.1:\(port)"] == .open)
            let upstreamBefore = try #require(harness.proxy.status?.traffic.upstreamRequests)
            for _ in 0..<5 { #expect(try await harness.fetch(harness.proxyURL(forOrigin: url)).status == 502) }
            #expect(harness.proxy.status?.traffic.upstreamRequests == upstreamBefore, "an open breaker sends nothing")
        }
        unreachable.release()  // held until here: the port must refuse for the whole test
    }

    @Test("An open breaker lets one trial through once its cool-down ends")
    func breakerTrialAfterCoolDown() async throws {
        let unreachable = try RefusingPort()
        let port = unreachable.port
        let coolDown = Duration.milliseconds(500)
        try await ProxyHarness.run(configure: {
            $0.breaker = CircuitBreakerConfiguration(failureThreshold: 2, coolDown: coolDown)
        }) { harness in
            let url = "http://127.0.0.1:\(port)/a.ts"
            for _ in 0..<2 { #expect(try await harness.fetch(harness.proxyURL(forOrigin: url)).status == 502) }
            let opened = ContinuousClock.now
            #expect(harness.proxy.status?.breakers["127.0.0.1:\(port)"] == .open)
            // The breaker half-opens when its cool-down ends: wait for that moment, not a guess.
            try await Task.sleep(until: opened + coolDown + .milliseconds(100))
            let beforeTrial = try #require(harness.proxy.status?.traffic.upstreamRequests)
            _ = try await harness.fetch(harness.proxyURL(forOrigin: url))
            #expect(harness.proxy.status?.traffic.upstreamRequests == beforeTrial + 1, "one trial after the cool-down")
        }
        unreachable.release()
    }
}
