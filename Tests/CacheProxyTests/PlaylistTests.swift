import CacheStore
import Testing
import TestSupport

@Suite("Playlists: rewritten through the proxy, stored raw", .timeLimit(.minutes(2)))
struct PlaylistTests {
    static func media(_ segments: [String], endList: Bool = true, sequence: Int = 0) -> [UInt8] {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:\(sequence)\n"
        for segment in segments { text += "#EXTINF:2.0,\n\(segment)\n" }
        if endList { text += "#EXT-X-ENDLIST\n" }
        return Array(text.utf8)
    }

    @Test("Every URI in a playlist is rewritten to the proxy, relative and absolute alike")
    func rewrites() async throws {
        try await ProxyHarness.run { harness in
            let absolute = harness.origin.url("/other/b.ts")
            harness.origin.set("/v/index.m3u8", .init(Self.media(["a.ts", absolute]), contentType: "application/vnd.apple.mpegurl"))
            let response = try await harness.get("/v/index.m3u8")
            #expect(response.status == 200)
            #expect(response.headers.first(name: "content-type") == "application/vnd.apple.mpegurl")
            let text = String(decoding: response.body, as: UTF8.self)
            #expect(text.contains(harness.proxyURL("/v/a.ts")))
            #expect(text.contains(harness.proxyURL("/other/b.ts")))
            #expect(!text.contains("\na.ts"))
            #expect(response.headers.first(name: "content-length") == String(response.body.count))
        }
    }

    @Test("A playlist is found by its content type when its URL does not say so")
    func byContentType() async throws {
        try await ProxyHarness.run { harness in
            harness.origin.set("/playlist", .init(Self.media(["a.ts"]), contentType: "application/x-mpegURL"))
            let text = String(decoding: try await harness.get("/playlist").body, as: UTF8.self)
            #expect(text.contains(harness.proxyURL("/a.ts")))
            let again = String(decoding: try await harness.get("/playlist").body, as: UTF8.self)
            #expect(again == text)
        }
    }

    @Test("The raw playlist is what the store keeps")
    func storedRaw() async throws {
        try await ProxyHarness.run { harness in
            let raw = Self.media(["a.ts"])
            harness.origin.set("/v/index.m3u8", .init(raw, contentType: "application/vnd.apple.mpegurl"))
            _ = try await harness.get("/v/index.m3u8")
            let key = harness.store.key(for: harness.origin.url("/v/index.m3u8"))
            let file = try #require(harness.store.reader(for: key).file)
            var stored = [UInt8](repeating: 0, count: raw.count)
            _ = try stored.withUnsafeMutableBytes { try file.read(into: $0, at: 0) }
            #expect(stored == raw)
        }
    }

    @Test("A VOD playlist is served from the cache without asking the origin again")
    func vodFromCache() async throws {
        try await ProxyHarness.run { harness in
            harness.origin.set("/v/index.m3u8", .init(Self.media(["a.ts"]), contentType: "application/vnd.apple.mpegurl"))
            let first = try await harness.get("/v/index.m3u8")
            let second = try await harness.get("/v/index.m3u8")
            #expect(first.body == second.body)
            #expect(harness.origin.requests(for: "/v/index.m3u8").count == 1)
        }
    }

    @Test("A live playlist is fetched fresh each time while the origin answers")
    func liveFresh() async throws {
        try await ProxyHarness.run { harness in
            harness.origin.set("/live.m3u8", .init(Self.media(["1.ts", "2.ts"], endList: false), contentType: "application/vnd.apple.mpegurl"))
            let first = String(decoding: try await harness.get("/live.m3u8").body, as: UTF8.self)
            #expect(first.contains(percentEncoded(harness.origin.url("/1.ts"))))
            harness.origin.set("/live.m3u8", .init(Self.media(["2.ts", "3.ts"], endList: false, sequence: 1), contentType: "application/vnd.apple.mpegurl"))
            let second = String(decoding: try await harness.get("/live.m3u8").body, as: UTF8.self)
            #expect(second.contains(percentEncoded(harness.origin.url("/3.ts"))))
            #expect(!second.contains(percentEncoded(harness.origin.url("/1.ts"))))
            #expect(harness.origin.requests(for: "/live.m3u8").count == 2)
        }
    }

    @Test("Playlists over the size limit are refused with 502")
    func tooLarge() async throws {
        try await ProxyHarness.run(configure: { $0.limits.maximumPlaylistBytes = 1000 }) { harness in
            harness.origin.set("/big.m3u8", .init(Self.media((0..<200).map { "segment-\($0).ts" }), contentType: "application/vnd.apple.mpegurl"))
            let response = try await harness.get("/big.m3u8")
            #expect(response.status == 502)
        }
    }

    @Test("Bytes under a .m3u8 name that are not a playlist are passed on unchanged")
    func notAPlaylist() async throws {
        try await ProxyHarness.run { harness in
            harness.origin.set("/fake.m3u8", .init(Array("hello".utf8), contentType: "text/plain"))
            let response = try await harness.get("/fake.m3u8")
            #expect(response.body == Array("hello".utf8))
        }
    }
}
