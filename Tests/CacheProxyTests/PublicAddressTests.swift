@testable import CacheProxy
import CacheProxyServer
import CacheStore
import NIOHTTP1
import SparseFile
import Testing
import TestSupport

@Suite("The URLs players are given: public URL, Host fallback, IPv6, loopback by address")
struct PublicAddressTests {
    @Test("Loopback is decided by address, never by how a name starts", arguments: [
        ("127.0.0.1", true), ("127.255.0.9", true), ("::1", true), ("[::1]", true), ("0:0:0:0:0:0:0:1", true),
        ("::ffff:127.0.0.1", true), ("localhost", true), ("LocalHost", true),
        ("127.example.com", false), ("127.0.0.1.nip.io", false), ("128.0.0.1", false), ("::2", false), ("0.0.0.0", false),
        ("::", false), ("example.com", false), ("", false), ("127.1", false), ("[::1", false),
    ])
    func loopback(host: String, isLoopback: Bool) {
        #expect(CacheProxy.isLoopback(host) == isLoopback)
    }

    @Test("A proxy refuses to listen on a name that only looks like loopback")
    func refusesLookalike() throws {
        let directory = TemporaryDirectory("proxy-address")
        let store = try CacheStore.open(at: directory.path, configuration: .init(fileOptions: SparseFileOptions(durability: .none)))
        defer { try? store.close() }
        var configuration = CacheProxyConfiguration.server
        configuration.host = "127.example.com"
        #expect(throws: CacheProxyError.self) { try CacheProxy(store: store, configuration: configuration) }
        configuration.host = "::1"
        #expect(throws: Never.self) { try CacheProxy(store: store, configuration: configuration) }
    }

    @Test("A public URL must be a plain http(s) URL", arguments: [
        "ftp://video.example.com", "https://video.example.com/?a=1", "https://user@video.example.com", "https://a b.com",
        "https://video.example.com/#x", "video.example.com", "https://exa%6dple.com",
    ])
    func refusesBadPublicURL(publicURL: String) throws {
        let directory = TemporaryDirectory("proxy-address")
        let store = try CacheStore.open(at: directory.path, configuration: .init(fileOptions: SparseFileOptions(durability: .none)))
        defer { try? store.close() }
        var configuration = CacheProxyConfiguration.server
        configuration.publicURL = publicURL
        #expect(throws: CacheProxyError.self) { try CacheProxy(store: store, configuration: configuration) }
    }

    static func request(host: String?) -> RequestHead {
        var head = RequestHead(method: .GET, uri: "/proxy", version: .http1_1)
        if let host { head.headers.add(name: "Host", value: host) }
        return head
    }

    static func address(host: String, publicURL: String? = nil) -> PublicAddress {
        var configuration = CacheProxyConfiguration.server
        configuration.host = host
        configuration.publicURL = publicURL
        return PublicAddress(configuration)
    }

    @Test("Off loopback, a valid Host names the proxy; anything else falls back to the bound address", arguments: [
        ("video.example.com:8080", "http://video.example.com:8080"), ("Video.Example.com", "http://video.example.com"),
        ("192.168.1.20:9000", "http://192.168.1.20:9000"), ("[fe80::1]:9000", "http://[fe80::1]:9000"),
        ("evil.com/path", "http://192.0.2.10:9000"), ("a b", "http://192.0.2.10:9000"), ("x:99999", "http://192.0.2.10:9000"),
        ("user@host", "http://192.0.2.10:9000"), ("[::1", "http://192.0.2.10:9000"), ("", "http://192.0.2.10:9000"),
        ("host\"><script>", "http://192.0.2.10:9000"), ("exa%6dple.com", "http://192.0.2.10:9000"),
    ])
    func hostFallback(host: String, base: String) {
        #expect(Self.address(host: "192.0.2.10").base(for: Self.request(host: host), port: 9000) == base)
    }

    @Test("On loopback the bound address is used whatever the Host says; IPv6 goes in brackets")
    func loopbackIgnoresHost() {
        #expect(Self.address(host: "127.0.0.1").base(for: Self.request(host: "evil.example"), port: 9000) == "http://127.0.0.1:9000")
        #expect(Self.address(host: "::1").base(for: Self.request(host: "evil.example"), port: 9000) == "http://[::1]:9000")
        #expect(Self.address(host: "::").base(for: Self.request(host: nil), port: 9000) == "http://[::]:9000")
        #expect(Self.address(host: "192.0.2.10").base(for: nil, port: 9000) == "http://192.0.2.10:9000")
    }

    @Test("A public URL is the base of everything, normalized, whatever the Host says")
    func publicURLWins() {
        let address = Self.address(host: "192.0.2.10", publicURL: "HTTPS://Video.Example.com:443/cache//")
        #expect(address.base(for: Self.request(host: "other.example"), port: 9000) == "https://video.example.com/cache")
        #expect(address.base(for: nil, port: 9000) == "https://video.example.com/cache")
        #expect(Self.address(host: "127.0.0.1", publicURL: "http://10.0.0.5:8080").base(for: nil, port: 9000) == "http://10.0.0.5:8080")
    }

    @Test("Playlists, session answers and proxyURL(for:) use the public URL", .timeLimit(.minutes(1)))
    func publicURLEndToEnd() async throws {
        try await ProxyHarness.run(configure: { $0.publicURL = "https://video.example.com/cache/" }) { harness in
            harness.origin.set("/v/index.m3u8", .init(PlaylistTests.media(["a.ts"]), contentType: "application/vnd.apple.mpegurl"))
            let text = String(decoding: try await harness.get("/v/index.m3u8").body, as: UTF8.self)
            #expect(text.contains("\nhttps://video.example.com/cache/proxy?url=" + percentEncoded(harness.origin.url("/v/a.ts")) + "\n"))
            let session = try await SessionClient(harness: harness).open(#"{"url": "\#(harness.origin.url("/v/index.m3u8"))"}"#)
            #expect(session.playlist == "https://video.example.com/cache/sessions/\(session.id)/index.m3u8")
            #expect(harness.proxy.proxyURL(for: "http://cdn.example/a.ts") == "https://video.example.com/cache/proxy?url=http%3A%2F%2Fcdn.example%2Fa.ts")
        }
    }

    @Test("A proxy on ::1 serves, and writes URLs that work, end to end", .timeLimit(.minutes(1)))
    func ipv6Loopback() async throws {
        try await ProxyHarness.run(configure: { $0.host = "::1" }) { harness in
            let segment = TestBytes(seed: 5).bytes(0, 50_000)
            harness.origin.set("/v/index.m3u8", .init(PlaylistTests.media(["a.ts"]), contentType: "application/vnd.apple.mpegurl"))
            harness.origin.set("/v/a.ts", .init(segment))
            let base = "http://[::1]:\(harness.port)"
            let playlist = try await harness.fetch(base + "/proxy?url=" + percentEncoded(harness.origin.url("/v/index.m3u8")))
            #expect(playlist.status == 200)
            let text = String(decoding: playlist.body, as: UTF8.self)
            let rewritten = try #require(text.split(separator: "\n").first { $0.hasPrefix("http") }.map(String.init))
            #expect(rewritten == base + "/proxy?url=" + percentEncoded(harness.origin.url("/v/a.ts")))
            #expect(try await harness.fetch(rewritten).body == segment)
            #expect(harness.proxy.proxyURL(for: "http://cdn.example/a.ts").hasPrefix(base + "/proxy?url="))
            // It listens on ::1 alone. Port numbers are per address family, so a test running
            // beside this one may listen on 127.0.0.1 at the same number: whatever answers
            // there must not be this proxy. The Host names this proxy's address: it would serve
            // the request, any other proxy refuses it.
            let served = harness.proxy.status?.traffic.bytesServed
            if let other = try? RawConnection(port: harness.port) {
                other.send("GET /proxy?url=\(percentEncoded(harness.origin.url("/v/a.ts"))) HTTP/1.1\r\nHost: [::1]:\(harness.port)\r\nConnection: close\r\n\r\n")
                _ = await other.readUntilClosed(timeout: .seconds(5))
                #expect(harness.proxy.status?.traffic.bytesServed == served, "it listens on ::1 alone")
            }
        }
    }
}
