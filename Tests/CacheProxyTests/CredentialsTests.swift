import CacheProxy
import CacheProxyParsing
import CacheStore
import Foundation
import NIOHTTP1
import Testing
import TestSupport

/// Origins behind credentials (issue 32): where header fields come from, that they reach the
/// origin on misses and never leave the proxy otherwise, and what the cache does with answers
/// that depend on them.
@Suite struct CredentialsTests {
    static let token = "Bearer secret-token-3141"
    static let cookie = "session=secret-cookie-2718"

    // MARK: The fields' checks

    @Test(arguments: ["Connection", "Host", "Content-Length", "Transfer-Encoding", "Range", "If-None-Match", "TE", "Upgrade"])
    func fieldsTheProxyOwnsAreRefusedByName(_ name: String) {
        #expect {
            try OriginHeaderFields([(name, "x")])
        } throws: { error in
            let error = try #require(error as? ParseError)
            return error.code == .unsupported && error.field == "\"headers.\(name)\"" && !error.message.contains("\n")
        }
    }

    @Test(arguments: ["a\r\nX-Injected: 1", "a\nb", "a\u{0}b"])
    func valuesWithLineBreaksOrNulAreRefusedWithoutEchoingThem(_ value: String) {
        #expect {
            try OriginHeaderFields([("Cookie", value)])
        } throws: { error in
            let error = try #require(error as? ParseError)
            return error.code == .malformed && error.field == "\"headers.Cookie\"" && !error.message.contains("Injected")
        }
    }

    @Test func namesMustBeTokensAndLimitsHold() throws {
        #expect(throws: ParseError.self) { try OriginHeaderFields([("Bad Name", "x")]) }
        #expect(throws: ParseError.self) { try OriginHeaderFields([("", "x")]) }
        #expect(throws: ParseError.self) { try OriginHeaderFields([("Cookie", "a"), ("cookie", "b")]) }
        let many = (0...OriginHeaderFields.maximumCount).map { (name: "X-F\($0)", value: "v") }
        #expect(throws: ParseError.self) { try OriginHeaderFields(many) }
        #expect(throws: ParseError.self) { try OriginHeaderFields([("X-Big", String(repeating: "a", count: OriginHeaderFields.maximumBytes))]) }
        let fields = try OriginHeaderFields(Array(many.dropLast()))
        #expect(fields.count == OriginHeaderFields.maximumCount)
        #expect(try OriginHeaderFields(lines: ["# comment", "", "Authorization:  \(Self.token)  "]).value(named: "authorization") == Self.token)
    }

    @Test func sessionBodiesCarryCheckedHeaders() throws {
        let body = #"{"url": "https://cdn.example/a.m3u8", "headers": {"Authorization": "Bearer T", "Cookie": "c=1"}}"#
        let request = try PlaybackSessionRequest(parsing: Array(body.utf8))
        #expect(request.headers.names == ["Authorization", "Cookie"])
        let refused = #"{"url": "https://cdn.example/a.m3u8", "headers": {"Host": "evil.example"}}"#
        #expect {
            try PlaybackSessionRequest(parsing: Array(refused.utf8))
        } throws: { ($0 as? ParseError)?.field == "\"headers.Host\"" }
    }

    @Test func prefetchItemsWinOverTheListAndDownloadsCarryHeaders() throws {
        let body = #"""
            {"urls": ["https://cdn.example/a.mp4", {"url": "https://cdn.example/b.mp4", "headers": {"Cookie": "item"}}],
             "headers": {"Cookie": "list", "Authorization": "Bearer T"}, "seconds": 2}
            """#
        let request = try PrefetchRequest(parsing: Array(body.utf8))
        #expect(request.headers[0].value(named: "Cookie") == "list")
        #expect(request.headers[1].value(named: "Cookie") == "item")
        #expect(request.headers[1].value(named: "Authorization") == "Bearer T")
        #expect {
            try PrefetchRequest(parsing: Array(#"{"urls": [{"url": "https://cdn.example/b.mp4", "headers": {"Range": "bytes=0-"}}], "seconds": 2}"#.utf8))
        } throws: { ($0 as? ParseError)?.field == "\"urls[0].headers.Range\"" }
        let download = try DownloadRequest(parsing: Array(#"{"url": "https://cdn.example/a.m3u8", "headers": {"Cookie": "c"}}"#.utf8))
        #expect(download.headers.value(named: "cookie") == "c")
    }

    // MARK: Where fields come from

    @Test func appFieldsReachTheOriginPerHostAndChangeWhileRunning() async throws {
        let origin = try await TestOrigin.start()
        var resource = TestOrigin.Resource(TestBytes(seed: 1).bytes(0, 50_000))
        resource.requiredFields = ["authorization": Self.token]
        origin.set("/a.bin", resource)
        origin.set("/b.bin", resource)
        let rules = ["*.example.com": try OriginHeaderFields([("Authorization", "Bearer wrong")]),
                     "127.0.0.1": try OriginHeaderFields([("Authorization", Self.token)])]
        try await ProxyHarness.run(origin: origin, configure: { $0.originHeaders = rules }) { harness in
            let first = try await harness.fetch(harness.proxyURL(forOrigin: origin.url("/a.bin")))
            #expect(first.status == 200)
            #expect(first.body == TestBytes(seed: 1).bytes(0, 50_000))
            #expect(origin.requests(for: "/a.bin").allSatisfy { $0.fields["authorization"] == Self.token })
            try harness.proxy.setOriginHeaders(["127.0.0.1": try OriginHeaderFields([("Authorization", "Bearer expired")])])
            let second = try await harness.fetch(harness.proxyURL(forOrigin: origin.url("/b.bin")))
            #expect(second.status == 403)
            #expect(origin.requests(for: "/b.bin").last?.fields["authorization"] == "Bearer expired")
            // A hit asks nothing of the origin, whatever the fields are now.
            let hit = try await harness.fetch(harness.proxyURL(forOrigin: origin.url("/a.bin")))
            #expect(hit.status == 200)
        }
    }

    @Test func aSessionsFieldsGoWithEveryFetchMadeForItAndAreNeverReported() async throws {
        let origin = try await TestOrigin.start()
        TestPresentation.publish("cred", on: origin, segments: 4)
        try await ProxyHarness.run(origin: origin) { harness in
            let client = SessionClient(harness: harness)
            let body = #"{"url": "\#(origin.url("/cred/master.m3u8"))", "quality": "lowest", "bufferAhead": {"segments": 2}, "headers": {"Authorization": "\#(Self.token)", "Cookie": "\#(Self.cookie)"}}"#
            let opened = try await client.open(body)
            let playlist = try await client.get(opened.playlist)
            #expect(playlist.status == 200)
            let mediaURL = try #require(SessionClient.uris(in: playlist.body).first { $0.contains(".m3u8") })
            let media = try await client.get(mediaURL)
            let segment = try #require(SessionClient.uris(in: media.body).first)
            #expect(try await client.get(segment).status == 200)
            // The buffering ahead is the session's too.
            #expect(await SessionClient.eventually { origin.requests.filter { $0.path.hasSuffix(".ts") }.count >= 3 })
            let requests = origin.requests.filter { $0.path.hasPrefix("/cred/") }
            #expect(requests.allSatisfy { $0.fields["authorization"] == Self.token && $0.fields["cookie"] == Self.cookie })
            let status = try await client.send(.GET, "/sessions/\(opened.id)")
            let listing = try await client.send(.GET, "/sessions")
            let proxyStatus = try await harness.get("/status")
            for answer in [status.body, listing.body, proxyStatus.body] {
                let text = String(decoding: answer, as: UTF8.self)
                #expect(!text.contains("secret-token") && !text.contains("secret-cookie"))
            }
            #expect(String(decoding: status.body, as: UTF8.self).contains("\"Authorization\""))
        }
    }

    @Test func aForbiddenAnswerReachesThePlayerUnstoredNeverTripsTheBreakerAndIsTheSessionsLastError() async throws {
        let origin = try await TestOrigin.start()
        TestPresentation.publish("locked", on: origin, segments: 2)
        origin.update("/locked/low/s0.ts") { $0.requiredFields = ["cookie": Self.cookie] }
        try await ProxyHarness.run(origin: origin) { harness in
            let url = harness.proxyURL(forOrigin: origin.url("/locked/low/s0.ts"))
            // More 403s than the breaker's threshold (3 in the harness): the origin stays usable.
            for _ in 0..<5 { #expect(try await harness.fetch(url).status == 403) }
            // Nothing of this origin is stored. Entries are made only by a fill started on a
            // 200, 206 or 416 and by a playlist's save, so an entry of another origin can only
            // come from a request that is not this test's (a full run once showed one here).
            let stored = harness.store.entries.map(\.key)
            #expect(!stored.contains { $0.hasPrefix(origin.url("/")) }, "stored: \(stored)")
            #expect(try await harness.fetch(harness.proxyURL(forOrigin: origin.url("/locked/low/s1.ts"))).status == 200)
            let client = SessionClient(harness: harness)
            let opened = try await client.open(#"{"url": "\#(origin.url("/locked/low/index.m3u8"))"}"#)
            let media = try await client.get(opened.playlist)
            let segment = try #require(SessionClient.uris(in: media.body).first)
            #expect(try await client.get(segment).status == 403)
            let status = try await client.status(opened.id)
            #expect((status["lastError"] as? String)?.contains("403") == true)
            // With the cookie the same request plays.
            let granted = try await harness.fetch(url, headers: [("Cookie", Self.cookie)])
            #expect(granted.status == 403, "the player's Cookie is not forwarded unless --forward-header names it")
        }
    }

    @Test func forwardedPlayerFieldsReachTheOriginForThatRequest() async throws {
        let origin = try await TestOrigin.start()
        var resource = TestOrigin.Resource(TestBytes(seed: 2).bytes(0, 30_000))
        resource.requiredFields = ["cookie": Self.cookie]
        origin.set("/f.bin", resource)
        try await ProxyHarness.run(origin: origin, configure: { $0.forwardedHeaders = ["Cookie", "Host"] }) { harness in
            let url = harness.proxyURL(forOrigin: origin.url("/f.bin"))
            #expect(try await harness.fetch(url).status == 403)
            let played = try await harness.fetch(url, headers: [("Cookie", Self.cookie)])
            #expect(played.status == 200)
            #expect(played.body == TestBytes(seed: 2).bytes(0, 30_000))
            // Host is the proxy's to set, whatever the configuration names.
            #expect(origin.requests(for: "/f.bin").allSatisfy { $0.fields["host"] == "127.0.0.1:\(origin.port)" })
        }
    }

    @Test func prefetchWithFieldsWarmsWhatThePlayerThenGetsAsHits() async throws {
        let origin = try await TestOrigin.start()
        var resource = TestOrigin.Resource(TestBytes(seed: 3).bytes(0, 40_000))
        resource.requiredFields = ["authorization": Self.token]
        origin.set("/p.bin", resource)
        try await ProxyHarness.run(origin: origin) { harness in
            let body = #"{"urls": [{"url": "\#(origin.url("/p.bin"))", "headers": {"Authorization": "\#(Self.token)"}}], "bytes": 40000}"#
            let answer = try await SessionClient(harness: harness).send(.POST, "/prefetch", body: body)
            #expect(answer.status == 202 || answer.status == 200)
            #expect(await SessionClient.eventually { harness.store.entries.first?.cachedBytes == 40_000 })
            let before = origin.requests(for: "/p.bin").count
            let played = try await harness.fetch(harness.proxyURL(forOrigin: origin.url("/p.bin")))
            #expect(played.status == 200)
            #expect(played.body == TestBytes(seed: 3).bytes(0, 40_000))
            #expect(origin.requests(for: "/p.bin").count == before)
        }
    }

    // MARK: Redirects

    @Test func aRedirectToAnotherHostDropsCredentialsUnlessItsPatternNamesThem() async throws {
        for vouched in [false, true] {
            let origin = try await TestOrigin.start()
            origin.set("/r.bin", .redirect(to: "http://localhost:\(origin.port)/target.bin"))
            origin.set("/target.bin", .init(TestBytes(seed: 4).bytes(0, 10_000)))
            var rules = ["127.0.0.1": try OriginHeaderFields([("Authorization", Self.token), ("X-Client", "app")])]
            if vouched { rules["localhost"] = try OriginHeaderFields([("Cookie", "app-default")]) }
            try await ProxyHarness.run(origin: origin, configure: {
                $0.originHeaders = rules
                $0.forwardedHeaders = ["Cookie"]
            }) { harness in
                let answer = try await harness.fetch(harness.proxyURL(forOrigin: origin.url("/r.bin")), headers: [("Cookie", Self.cookie)])
                #expect(answer.status == 200)
                let first = try #require(origin.requests(for: "/r.bin").last)
                #expect(first.fields["authorization"] == Self.token && first.fields["cookie"] == Self.cookie)
                let target = try #require(origin.requests(for: "/target.bin").last)
                // The app's fields are per host; the player's cookie goes on only where a pattern vouches for it.
                #expect(target.fields["authorization"] == nil && target.fields["x-client"] == nil)
                #expect(target.fields["cookie"] == (vouched ? Self.cookie : nil))
            }
        }
    }

    // MARK: Caching semantics

    @Test func noStoreAnswersArePassedThroughUnlessTheConfigurationSaysOtherwise() async throws {
        for storesAnyway in [false, true] {
            let origin = try await TestOrigin.start()
            var resource = TestOrigin.Resource(TestBytes(seed: 5).bytes(0, 20_000))
            resource.cacheControl = "no-store"
            origin.set("/n.bin", resource)
            try await ProxyHarness.run(origin: origin, configure: { $0.storesNoStoreResponses = storesAnyway }) { harness in
                for _ in 0..<2 {
                    let answer = try await harness.fetch(harness.proxyURL(forOrigin: origin.url("/n.bin")), headers: [("Range", "bytes=100-199")])
                    #expect(answer.status == 206)
                    #expect(answer.body == Array(TestBytes(seed: 5).bytes(0, 20_000)[100..<200]))
                }
                #expect(harness.store.entries.isEmpty == !storesAnyway)
            }
        }
    }

    @Test func privateAnswersAreStoredByAProxyOnLoopback() async throws {
        let origin = try await TestOrigin.start()
        var resource = TestOrigin.Resource(TestBytes(seed: 6).bytes(0, 20_000))
        resource.cacheControl = "private, max-age=60"
        origin.set("/private.bin", resource)
        try await ProxyHarness.run(origin: origin) { harness in
            let answer = try await harness.fetch(harness.proxyURL(forOrigin: origin.url("/private.bin")))
            #expect(answer.status == 200)
            #expect(harness.store.entries.count == 1)
        }
    }

    @Test func varyMakesOneEntryPerValueAndWithoutVaryOneEntry() async throws {
        let origin = try await TestOrigin.start()
        var varying = TestOrigin.Resource(TestBytes(seed: 7).bytes(0, 20_000))
        varying.vary = "Cookie"
        origin.set("/v.bin", varying)
        origin.set("/same.bin", .init(TestBytes(seed: 8).bytes(0, 20_000)))
        try await ProxyHarness.run(origin: origin, configure: { $0.forwardedHeaders = ["Cookie"] }) { harness in
            for cookie in ["user=a", "user=b", "user=a", "user=b"] {
                for path in ["/v.bin", "/same.bin"] {
                    let answer = try await harness.fetch(harness.proxyURL(forOrigin: origin.url(path)), headers: [("Cookie", cookie)])
                    #expect(answer.status == 200)
                }
            }
            let keys = harness.store.entries.map(\.key)
            #expect(keys.filter { $0.contains("/same.bin") }.count == 1)
            let varied = keys.filter { $0.contains("/v.bin") }
            #expect(varied.count == 2)
            #expect(varied.allSatisfy { $0.contains("#vary(cookie)=") && !$0.contains("user=") })
            // The first request taught the proxy that the URL varies: its answer was not kept
            // and the response was relayed (two origin requests); the other cookie was fetched
            // once, and each was a hit after.
            #expect(origin.requests(for: "/v.bin").count == 4)
            #expect(origin.requests(for: "/same.bin").count == 1)
        }
    }

    @Test func varyStarIsNeverStored() async throws {
        let origin = try await TestOrigin.start()
        var resource = TestOrigin.Resource(TestBytes(seed: 9).bytes(0, 20_000))
        resource.vary = "*"
        origin.set("/star.bin", resource)
        try await ProxyHarness.run(origin: origin) { harness in
            for _ in 0..<2 {
                let answer = try await harness.fetch(harness.proxyURL(forOrigin: origin.url("/star.bin")))
                #expect(answer.status == 200)
            }
            #expect(harness.store.entries.isEmpty)
        }
    }
}
