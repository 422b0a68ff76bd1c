@testable import CacheProxy
import CacheProxyParsing
import DASH
import Testing
import TestSupport

@Suite("DASH through the proxy: MPDs rewritten, segments cached, offline replay", .timeLimit(.minutes(2)))
struct DASHProxyTests {
    /// The path-form URL of an origin path.
    static func dashURL(_ harness: ProxyHarness, _ path: String) throws -> String {
        try #require(DASHProxyEndpoint(port: UInt16(harness.port)).url(for: harness.origin.url(path)))
    }

    @Test("An MPD at its path form is served as application/dash+xml with its relative templates untouched")
    func pathFormManifest() async throws {
        try await ProxyHarness.run { harness in
            let mpd = DASHTestPresentation.serveTemplate(on: harness.origin)
            let response = try await harness.fetch(try Self.dashURL(harness, mpd))
            #expect(response.status == 200)
            #expect(response.headers.first(name: "content-type") == "application/dash+xml")
            #expect(response.headers.first(name: "cache-control") == "no-cache")
            // Relative references resolve against the path form, through the proxy: nothing to change.
            #expect(response.body == DASHTestPresentation.templateMPD())
        }
    }

    @Test("An MPD at /proxy?url= gets a BaseURL naming its directory's path form, so its relative segments resolve through the proxy (issue 36)")
    func queryFormManifest() async throws {
        try await ProxyHarness.run { harness in
            let mpd = DASHTestPresentation.serveTemplate(on: harness.origin)
            let play = try await DASHTestPlayer(harness: harness).play(harness.proxyURL(mpd))
            let text = String(decoding: play.manifest, as: UTF8.self)
            // A directory, not the MPD's file: ffmpeg appends a Representation's BaseURL to the MPD's.
            #expect(text.contains("<BaseURL>\(try Self.dashURL(harness, "/v/"))</BaseURL>"))
            #expect(text.contains("media=\"chunk-$RepresentationID$-$Number%05d$.m4s\""))
            #expect(play.fetched.count == DASHTestPresentation.templatePaths("/v/").count)
        }
    }

    @Test("An MPD is found by its content type when its URL does not end in .mpd, and is never served raw from the cache")
    func byContentType() async throws {
        try await ProxyHarness.run { harness in
            DASHTestPresentation.serveTemplate(on: harness.origin)
            // An absolute BaseURL, which the rewriter must turn into its path form.
            let raw = DASHTestPresentation.templateMPD(extraMPDContent: "<BaseURL>\(harness.origin.url("/v/"))</BaseURL>\n")
            harness.origin.set("/v/manifest", .init(raw, contentType: "application/dash+xml; charset=utf-8"))
            let player = DASHTestPlayer(harness: harness)
            let plays = [try await player.play(harness.proxyURL("/v/manifest")), try await player.play(try Self.dashURL(harness, "/v/manifest"))]
            for play in plays {
                #expect(play.manifest != raw)
                #expect(String(decoding: play.manifest, as: UTF8.self).contains("<BaseURL>\(try Self.dashURL(harness, "/v/"))</BaseURL>"))
                #expect(play.fetched.count == DASHTestPresentation.templatePaths("/v/").count)
            }
            #expect(harness.origin.requests(for: "/v/manifest").count == 1)
        }
    }

    @Test("Every init section and segment an MPD names comes through the proxy and is cached: a second play asks the origin nothing")
    func segmentsCached() async throws {
        try await ProxyHarness.run { harness in
            let mpd = DASHTestPresentation.serveTemplate(on: harness.origin)
            let player = DASHTestPlayer(harness: harness)
            let first = try await player.play(try Self.dashURL(harness, mpd))
            let paths = DASHTestPresentation.templatePaths("/v/")
            #expect(first.fetched.count == paths.count)
            for (index, path) in paths.enumerated() {
                #expect(harness.origin.requests(for: path).count == 1, "\(path)")
                let expected = TestBytes(seed: UInt64(index + 1)).bytes(0, DASHTestPresentation.segmentBytes)
                #expect(first.fetched.first { $0.url.hasSuffix(String(path.dropFirst(3))) }?.body == expected, "\(path)")
                let key = harness.store.key(for: harness.origin.url(path))
                #expect(harness.store.reader(for: key).file?.cachedLength(from: 0) == UInt64(DASHTestPresentation.segmentBytes))
            }
            harness.origin.resetLog()
            let second = try await player.play(try Self.dashURL(harness, mpd))
            #expect(second.fetched.map(\.body) == first.fetched.map(\.body))
            #expect(harness.origin.requests.isEmpty, "\(harness.origin.requests.map(\.path))")
        }
    }

    @Test("A segment cached through /dash/ is a hit answered from the request's raw bytes")
    func rawHits() async throws {
        try await ProxyHarness.run { harness in
            DASHTestPresentation.serveTemplate(on: harness.origin)
            let segment = try Self.dashURL(harness, "/v/chunk-v1-00001.m4s")
            _ = try await harness.fetch(segment)
            let before = harness.proxy.status?.traffic.hitsFromRawRequests ?? 0
            let hit = try await harness.fetch(segment, headers: [("Range", "bytes=100-199")])
            #expect(hit.status == 206)
            #expect(hit.body == Array(TestBytes(seed: 2).bytes(100, 100)))
            #expect((harness.proxy.status?.traffic.hitsFromRawRequests ?? 0) == before + 1)
        }
    }

    @Test("With the origin stopped, a played static MPD and its segments are served from the cache alone")
    func offline() async throws {
        try await ProxyHarness.run { harness in
            let mpd = DASHTestPresentation.serveTemplate(on: harness.origin)
            let sb = DASHTestPresentation.serveSegmentBase(on: harness.origin)
            let player = DASHTestPlayer(harness: harness)
            let online = [try await player.play(try Self.dashURL(harness, mpd)), try await player.play(harness.proxyURL(sb))]
            await harness.origin.stop()
            let offline = [try await player.play(try Self.dashURL(harness, mpd)), try await player.play(harness.proxyURL(sb))]
            for (before, after) in zip(online, offline) {
                #expect(after.manifest == before.manifest)
                #expect(after.fetched.map(\.body) == before.fetched.map(\.body))
            }
            let missing = try await harness.fetch(try Self.dashURL(harness, "/v/chunk-v1-00009.m4s"))
            #expect(missing.status == 502)
        }
    }

    @Test("SegmentBase: the init section, the sidx and every segment are byte ranges of one cache file, each fetched once")
    func segmentBaseRanges() async throws {
        try await ProxyHarness.run { harness in
            let mpd = DASHTestPresentation.serveSegmentBase(on: harness.origin)
            let play = try await DASHTestPlayer(harness: harness).play(try Self.dashURL(harness, mpd))
            let file = DASHTestPresentation.segmentBaseFile
            // The init section, the index, and the 3 segments the index lists.
            #expect(play.fetched.count == 2 + DASHTestPresentation.segmentCount)
            for fetched in play.fetched {
                let range = try #require(fetched.range)
                #expect(fetched.body == Array(file[Int(range.first)...Int(range.last)]))
            }
            let keys = harness.store.entries.map(\.key).filter { $0.contains("/sb/") }
            #expect(keys.sorted() == [harness.store.key(for: harness.origin.url("/sb/manifest.mpd")),
                                      harness.store.key(for: harness.origin.url("/sb/stream.mp4"))].sorted())
            let stream = try #require(harness.store.reader(for: harness.store.key(for: harness.origin.url("/sb/stream.mp4"))).file)
            #expect(stream.cachedLength(from: 0) == UInt64(file.count))
            // Each range asked once; nothing asked twice.
            let ranges = harness.origin.requests(for: "/sb/stream.mp4").compactMap(\.range)
            #expect(ranges.count == Set(ranges).count)
            #expect(ranges.count == play.fetched.count)
        }
    }

    @Test("A static MPD is fetched once; a dynamic one on every request, and served stale only when the origin is down")
    func staticAndDynamic() async throws {
        try await ProxyHarness.run { harness in
            let vod = DASHTestPresentation.serveTemplate(on: harness.origin, at: "/vod/")
            let live = DASHTestPresentation.serveTemplate(on: harness.origin, at: "/live/", type: "dynamic")
            for _ in 0..<3 {
                #expect(try await harness.fetch(try Self.dashURL(harness, vod)).status == 200)
                #expect(try await harness.fetch(try Self.dashURL(harness, live)).status == 200)
            }
            #expect(harness.origin.requests(for: vod).count == 1)
            #expect(harness.origin.requests(for: live).count == 3)
            harness.origin.update(live) { $0.faults.status = 503 }
            let stale = try await harness.fetch(try Self.dashURL(harness, live))
            #expect(stale.status == 200)
            #expect(stale.body == DASHTestPresentation.templateMPD(type: "dynamic"))
        }
    }

    @Test("A /dash/ target whose first segment is not a percent-encoded http(s) URL ending in / is 400")
    func badTargets() async throws {
        try await ProxyHarness.run { harness in
            for target in ["/dash/", "/dash/nothing", "/dash/ftp%3A%2F%2Fa%2F/x.m4s", "/dash/http%3A%2F%2Fa.example%2Fv/x.m4s",
                           "/dash/http%3A%2F%2Fa.example%2F%2/x.m4s"] {
                let response = try await harness.fetch("http://127.0.0.1:\(harness.port)\(target)")
                #expect(response.status == 400, "\(target)")
            }
            #expect(harness.origin.requests.isEmpty)
        }
    }
}

@Suite("DASH routes: the path form parsed, guarded and labelled as a player's")
struct DASHRouteTests {
    @Test("The path form maps to the origin URL: the decoded prefix, then the rest with its query as written")
    func parsesPathForm() throws {
        let route = try ProxyRoute(parsing: "/dash/https%3A%2F%2Fcdn.example%2Fv%2F/v1/seg-$Number$.m4s?token=a%2Fb&x=1")
        #expect(route == .dash(try OriginURL(parsing: "https://cdn.example/v/v1/seg-$Number$.m4s?token=a%2Fb&x=1")))
    }

    @Test("A session's path form, /sessions/ID/dash/<prefix>/<rest>, is the session's media route, counted as the session's")
    func sessionPathForm() throws {
        let route = try ProxyRoute(parsing: "/sessions/s-1/dash/https%3A%2F%2Fcdn.example%2Fv%2F/seg-$Number$.m4s?t=1")
        #expect(route == .sessionProxy("s-1", try OriginURL(parsing: "https://cdn.example/v/seg-$Number$.m4s?t=1"), DeliveryDirectives()))
        #expect(RouteAccess(target: Array("/sessions/s-1/dash/https%3A%2F%2Fcdn.example%2F/a/b.m4s".utf8)) == .media)
        #expect(RouteLabel(target: "/sessions/s-1/dash/https%3A%2F%2Fcdn.example%2F/a.m4s") == .session)
        #expect(RouteAccess(target: Array("/sessions/s-1/other".utf8)) == .control)
        #expect(throws: ParseError.self) { try ProxyRoute(parsing: "/sessions/a%2Fb/dash/https%3A%2F%2Fcdn.example%2F/a.m4s") }
        #expect(throws: ParseError.self) { try ProxyRoute(parsing: "/sessions/s/dash/not-a-url/a.m4s") }
    }

    @Test("DASH's path form is a media route (no control token) and counts as the proxy's in metrics")
    func mediaRoute() {
        #expect(RouteAccess(target: Array("/dash/https%3A%2F%2Fcdn.example%2F/a/b/c.m4s".utf8)) == .media)
        #expect(RouteLabel(target: "/dash/https%3A%2F%2Fcdn.example%2F/a.m4s") == .proxy)
    }

    @Test("MPDs are told by their content type (parameters and case aside) and by a .mpd path")
    func detection() throws {
        #expect(PlaylistDetection.isDASHContentType("Application/DASH+XML; charset=utf-8"))
        #expect(PlaylistDetection.isDASHContentType("video/vnd.mpeg.dash.mpd"))
        #expect(!PlaylistDetection.isDASHContentType("application/xml"))
        #expect(PlaylistDetection.hasDASHExtension(try OriginURL(parsing: "https://a.example/v/Manifest.MPD?x=1")))
        #expect(!PlaylistDetection.hasDASHExtension(try OriginURL(parsing: "https://a.example/v/manifest?x=.mpd")))
    }
}
