import CacheProxy
import CacheProxyParsing
import Testing
import TestSupport

/// Multivariant playlists are served from the cache without a round trip to the origin
/// (stale-while-revalidate): fresh for the origin's `max-age` or the configured default, then
/// revalidated by one conditional background fetch whose answer the next request gets.
@Suite("Multivariant playlists without a round trip", .timeLimit(.minutes(2)))
struct PlaylistFreshnessTests {
    static let type = "application/vnd.apple.mpegurl"

    static func multivariant(_ variant: String) -> [UInt8] {
        Array("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000\n\(variant)/index.m3u8\n".utf8)
    }

    private static func body(_ response: ProxyHarness.Response) -> String { String(decoding: response.body, as: UTF8.self) }

    private static func page(_ harness: ProxyHarness, _ path: String) async throws -> String { body(try await harness.get(path)) }

    @Test("A cached multivariant playlist is served without asking the origin while fresh")
    func freshCopyAsksNothing() async throws {
        try await ProxyHarness.run { harness in
            harness.origin.set("/m.m3u8", .init(Self.multivariant("a"), contentType: Self.type, entityTag: "\"1\""))
            let page = try await Self.page(harness, "/m.m3u8")
            #expect(page.contains(harness.proxyURL("/a/index.m3u8")))
            harness.origin.set("/m.m3u8", .init(Self.multivariant("b"), contentType: Self.type, entityTag: "\"2\""))
            for _ in 0..<3 {
                let page = try await Self.page(harness, "/m.m3u8")
                #expect(page.contains(harness.proxyURL("/a/index.m3u8")))
            }
            #expect(harness.origin.requests(for: "/m.m3u8").count == 1)
            #expect(harness.proxy.status?.traffic.playlistsServedWithoutOrigin == 3)
        }
    }

    @Test("A stale copy is served at once and revalidated in the background; the next request gets the update")
    func staleCopyIsServedThenUpdated() async throws {
        try await ProxyHarness.run(configure: { $0.playlistFreshness = .zero }) { harness in
            harness.origin.set("/m.m3u8", .init(Self.multivariant("a"), contentType: Self.type, entityTag: "\"1\""))
            _ = try await harness.get("/m.m3u8")
            // The origin now takes 8 s to answer: the stale copy must not wait for it (the bound
            // leaves a loaded machine room; the old body is the proof it did not wait).
            var changed = TestOrigin.Resource(Self.multivariant("b"), contentType: Self.type, entityTag: "\"2\"")
            changed.faults.headDelay = .seconds(8)
            harness.origin.set("/m.m3u8", changed)
            let started = ContinuousClock.now
            let stale = try await harness.get("/m.m3u8")
            #expect(ContinuousClock.now - started < .seconds(5))
            #expect(Self.body(stale).contains(harness.proxyURL("/a/index.m3u8")))
            try await waitUntil("the background revalidation stored the update") {
                harness.proxy.status?.traffic.playlistRevalidations == 1
            }
            let page = try await Self.page(harness, "/m.m3u8")
            #expect(page.contains(harness.proxyURL("/b/index.m3u8")))
            let revalidation = try #require(harness.origin.requests(for: "/m.m3u8").dropFirst().first)
            #expect(revalidation.isConditional)
        }
    }

    @Test("An unchanged playlist costs a 304, and concurrent stale requests start one revalidation")
    func unchangedPlaylistCostsANotModified() async throws {
        try await ProxyHarness.run(configure: { $0.playlistFreshness = .zero }) { harness in
            var resource = TestOrigin.Resource(Self.multivariant("a"), contentType: Self.type, entityTag: "\"1\"")
            harness.origin.set("/m.m3u8", resource)
            _ = try await harness.get("/m.m3u8")
            resource.faults.headDelay = .milliseconds(300)
            harness.origin.set("/m.m3u8", resource)
            async let first = harness.get("/m.m3u8")
            async let second = harness.get("/m.m3u8")
            let answers = try await [first, second]
            #expect(answers.allSatisfy { Self.body($0).contains(harness.proxyURL("/a/index.m3u8")) })
            try await waitUntil("the revalidation ended") { harness.proxy.status?.traffic.playlistsNotModified == 1 }
            #expect(harness.proxy.status?.traffic.playlistRevalidations == 1)
            #expect(harness.origin.requests(for: "/m.m3u8").count == 2)
        }
    }

    @Test("The origin's max-age sets the freshness; unusable values fall back to the default",
          arguments: [("max-age=0", true), ("max-age=-5", false), ("max-age=99999999999999", false), ("max-age=abc", false),
                      ("no-cache, max-age=\"0\"", true), ("public", false)])
    func maxAgeSetsFreshness(cacheControl: String, isStaleAtOnce: Bool) async throws {
        try await ProxyHarness.run { harness in
            var resource = TestOrigin.Resource(Self.multivariant("a"), contentType: Self.type, entityTag: "\"1\"")
            resource.cacheControl = cacheControl
            harness.origin.set("/m.m3u8", resource)
            _ = try await harness.get("/m.m3u8")
            _ = try await harness.get("/m.m3u8")
            if isStaleAtOnce {
                try await waitUntil("the stale copy was revalidated") { harness.proxy.status?.traffic.playlistRevalidations == 1 }
                #expect(harness.origin.requests(for: "/m.m3u8").count == 2)
            } else {
                // The default freshness (10 minutes) holds: give a background fetch the time to show.
                try await Task.sleep(for: .milliseconds(200))
                #expect(harness.origin.requests(for: "/m.m3u8").count == 1)
                #expect(harness.proxy.status?.traffic.playlistRevalidations == 0)
            }
        }
    }

    @Test("An origin failing or answering garbage keeps the cached copy served, logged once", arguments: [false, true])
    func failedRevalidationKeepsTheCopy(garbage: Bool) async throws {
        let log = CapturedLog()
        try await ProxyHarness.run(configure: { $0.playlistFreshness = .zero }, logger: log.logger(level: .notice)) { harness in
            harness.origin.set("/m.m3u8", .init(Self.multivariant("a"), contentType: Self.type, entityTag: "\"1\""))
            _ = try await harness.get("/m.m3u8")
            var broken = TestOrigin.Resource(garbage ? Array("<html>maintenance</html>".utf8) : [], contentType: "text/html")
            if !garbage { broken.faults.status = 500 }
            harness.origin.set("/m.m3u8", broken)
            for round in 1...3 {
                let answer = try await harness.get("/m.m3u8")
                #expect(answer.status == 200)
                #expect(Self.body(answer).contains(harness.proxyURL("/a/index.m3u8")))
                try await waitUntil("revalidation \(round) ended") {
                    harness.origin.requests(for: "/m.m3u8").count == round + 1 && (harness.proxy.status?.traffic.playlistRevalidations ?? 0) >= (garbage ? UInt64(round) : 0)
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(log.all.filter { $0.message.hasPrefix("could not revalidate a cached playlist") }.count == 1)
        }
    }

    @Test("A playlist the origin no longer has is served stale until revalidated, then the 404 passes to the player")
    func goneFromTheOrigin() async throws {
        try await ProxyHarness.run(configure: { $0.playlistFreshness = .zero }) { harness in
            harness.origin.set("/m.m3u8", .init(Self.multivariant("a"), contentType: Self.type))
            _ = try await harness.get("/m.m3u8")
            harness.origin.update("/m.m3u8") { $0.faults.status = 404 }
            #expect(try await harness.get("/m.m3u8").status == 200)
            try await waitUntil("the revalidation saw the 404") { harness.store.entry(for: harness.store.key(for: harness.origin.url("/m.m3u8"))) == nil }
            #expect(try await harness.get("/m.m3u8").status == 404)
        }
    }

    @Test("With the origin stopped, a cached multivariant playlist is served at once")
    func originStopped() async throws {
        try await ProxyHarness.run(configure: { $0.playlistFreshness = .zero }) { harness in
            harness.origin.set("/m.m3u8", .init(Self.multivariant("a"), contentType: Self.type))
            _ = try await harness.get("/m.m3u8")
            await harness.origin.stop()
            for _ in 0..<3 {
                let answer = try await harness.get("/m.m3u8")
                #expect(answer.status == 200)
                #expect(Self.body(answer).contains(harness.proxyURL("/a/index.m3u8")))
            }
        }
    }

    @Test("Cache-Control directives are read as a private cache reads them", arguments: [
        (["max-age=60"], UInt64?.some(60), false, false),
        (["public, max-age=\"120\", no-cache"], 120, false, true),
        (["max-age=60, max-age=5"], 60, false, false),
        (["no-store", "MAX-AGE=7"], 7, true, false),
        (["max-age=-1"], nil, false, false),
        (["max-age=1.5"], nil, false, false),
        (["max-age=12345678901"], nil, false, false),
        (["private=\"a, no-store\", max-age=3"], 3, false, false),
        ([",,=,max-age=", "\u{0}"], nil, false, false),
    ])
    func cacheControlParsing(values: [String], maxAge: UInt64?, noStore: Bool, noCache: Bool) {
        let parsed = CacheControl(parsing: values)
        #expect(parsed.maxAge == maxAge)
        #expect(parsed.noStore == noStore)
        #expect(parsed.noCache == noCache)
    }

    @Test("Age is delta-seconds or nothing")
    func ageParsing() {
        #expect(CacheControl.age(parsing: " 30 ") == 30)
        #expect(CacheControl.age(parsing: "-3") == nil)
        #expect(CacheControl.age(parsing: "") == nil)
        #expect(CacheControl.age(parsing: nil) == nil)
    }
}
