import AsyncHTTPClient
import CacheProxy
import CacheProxyServer
import CacheProxyParsing
import NIOCore
import NIOHTTP1
import Testing
import TestSupport

/// What a hostile web page on the same device can do to the proxy, tried as the page's browser
/// would send it (DNS rebinding, cross-site requests), and what a hostile playlist or origin can
/// make it fetch (itself, link-local services, forbidden names and redirects).
@Suite("Security: DNS rebinding, cross-site requests, control token, request forgery", .timeLimit(.minutes(1)))
struct SecurityTests {
    static let body = TestBytes(seed: 18).bytes(0, 100_000)
    static let attacker = "https://attacker.example"

    private func send(
        _ harness: ProxyHarness, _ method: HTTPMethod, _ path: String, headers: [(String, String)] = [], body: String? = nil
    ) async throws -> ProxyHarness.Response {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(harness.port)\(path)")
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await harness.client.execute(request, timeout: .seconds(30))
        var bytes: [UInt8] = []
        for try await chunk in response.body { bytes.append(contentsOf: chunk.readableBytesView) }
        return ProxyHarness.Response(status: Int(response.status.code), headers: response.headers, body: bytes)
    }

    private func rawHits(_ harness: ProxyHarness) -> UInt64 { harness.proxy.status?.traffic.hitsFromRawRequests ?? 0 }

    /// A harness whose origin serves `/v.mp4`, already cached and read once (so verified).
    private func withCachedFile(
        configure: (inout CacheProxyConfiguration) -> Void = { _ in }, _ test: (ProxyHarness, _ target: String) async throws -> Void
    ) async throws {
        try await ProxyHarness.run(configure: configure) { harness async throws in
            harness.origin.set("/v.mp4", .init(Self.body, contentType: "video/mp4"))
            _ = try await harness.get("/v.mp4")
            _ = try await harness.get("/v.mp4")
            try await test(harness, "/proxy?url=" + percentEncoded(harness.origin.url("/v.mp4")))
        }
    }

    // MARK: DNS rebinding

    @Test("A rebinding Host gets 421 with a one-line reason on the asynchronous path, and the origin is never asked")
    func rebindingHostAsync() async throws {
        try await ProxyHarness.run { harness in
            harness.origin.set("/a.ts", .init([1, 2, 3]))
            let status = try await send(harness, .GET, "/status", headers: [("Host", "attacker.example:\(harness.port)")])
            #expect(status.status == 421)
            let reason = String(decoding: status.body, as: UTF8.self)
            #expect(reason.hasSuffix("\n") && reason.dropLast().split(separator: "\n").count == 1 && reason.contains("attacker.example"))
            let proxied = try await harness.get("/a.ts", headers: [("Host", "attacker.example:\(harness.port)")])
            #expect(proxied.status == 421)
            #expect(harness.origin.requests.isEmpty)
            #expect(try await harness.get("/a.ts").body == [1, 2, 3], "the proxy's own name passes")
            #expect(try await send(harness, .GET, "/status", headers: [("Host", "localhost:\(harness.port)")]).status == 200)
        }
    }

    /// The raw-bytes path answers plain requests; a `Connection` option it does not read sends a
    /// request to the decoder and the hit path behind it.
    @Test("A cache hit is served to a rebinding Host on neither hit path; the proxy's own name gets it", arguments: [
        ("", UInt64(1)), ("Connection: keep-alive, x-other\r\n", UInt64(0)),
    ])
    func rebindingHostHit(field: String, rawHitsForProperHost: UInt64) async throws {
        try await withCachedFile { harness, target in
            let before = rawHits(harness)
            let connection = try RawConnection(port: harness.port)
            connection.send("GET \(target) HTTP/1.1\r\nHost: attacker.example:\(harness.port)\r\n\(field)Range: bytes=0-9\r\n\r\n")
            #expect(await connection.readResponse(timeout: .seconds(10))?.status == 421)
            #expect(rawHits(harness) == before)
            connection.send("GET \(target) HTTP/1.1\r\nHost: \(harness.host)\r\n\(field)Range: bytes=0-9\r\n\r\n")
            let hit = await connection.readResponse(timeout: .seconds(10))
            #expect(hit?.status == 206 && hit?.body.elementsEqual(Self.body[0..<10]) == true)
            #expect(rawHits(harness) == before + rawHitsForProperHost)
        }
    }

    @Test("Two Host headers get 400")
    func twoHosts() async throws {
        try await withCachedFile { harness, target in
            let connection = try RawConnection(port: harness.port)
            connection.send("GET \(target) HTTP/1.1\r\nHost: \(harness.host)\r\nHost: attacker.example\r\n\r\n")
            #expect(await connection.readResponse(timeout: .seconds(10))?.status == 400)
        }
    }

    @Test("Configured names pass the Host check: the public URL's host and --allow-request-host")
    func configuredHosts() async throws {
        let configure: (inout CacheProxyConfiguration) -> Void = { configuration in
            configuration.publicURL = "http://tv.example:8080"
            configuration.security.allowedRequestHosts = ["phone.local"]
        }
        try await ProxyHarness.run(configure: configure) { harness async throws in
            #expect(try await send(harness, .GET, "/status", headers: [("Host", "tv.example:8080")]).status == 200)
            #expect(try await send(harness, .GET, "/status", headers: [("Host", "phone.local:1234")]).status == 200)
            #expect(try await send(harness, .GET, "/status", headers: [("Host", "tv.example:9999")]).status == 421)
        }
    }

    // MARK: Cross-site requests

    /// A body each state-changing route accepts, for a presentation on `harness`'s origin.
    private func validBody(for path: String, _ harness: ProxyHarness) -> String? {
        let master = harness.origin.url(TestPresentation.publish("f", on: harness.origin, segments: 2).masterPath)
        switch path {
        case "/prefetch": return #"{"urls": ["\#(master)"], "seconds": 6}"#
        case "/sessions", "/downloads": return #"{"url": "\#(master)"}"#
        default: return nil
        }
    }

    @Test("A foreign Origin is refused with 403 on every route that changes state, and nothing changes", arguments: [
        (HTTPMethod.POST, "/prefetch", 202), (.DELETE, "/prefetch", 200), (.POST, "/sessions", 201), (.DELETE, "/sessions/s1", 404),
        (.POST, "/downloads", 202), (.DELETE, "/downloads/d1", 404),
    ])
    func foreignOrigin(method: HTTPMethod, path: String, withoutOrigin: Int) async throws {
        try await ProxyHarness.run { harness in
            let body = validBody(for: path, harness)
            let json = [("Content-Type", "application/json")]
            let response = try await send(harness, method, path, headers: json + [("Origin", Self.attacker)], body: body)
            #expect(response.status == 403)
            #expect(String(decoding: response.body, as: UTF8.self).contains("--allow-origin"))
            #expect(response.headers["access-control-allow-origin"].isEmpty)
            #expect(harness.origin.requests.isEmpty)
            #expect(try await send(harness, method, path, headers: json, body: body).status == withoutOrigin, "the same request from no page")
        }
    }

    @Test("A text/plain body, the simple request a page may send anywhere, gets 415 and changes nothing", arguments: [
        ("/prefetch", 202), ("/sessions", 201), ("/downloads", 202),
    ])
    func textPlainBody(path: String, asJSON: Int) async throws {
        try await ProxyHarness.run { harness async throws in
            let body = validBody(for: path, harness)
            #expect(try await send(harness, .POST, path, headers: [("Content-Type", "text/plain")], body: body).status == 415)
            #expect(try await send(harness, .POST, path, body: body).status == 415, "no Content-Type")
            #expect(harness.origin.requests.isEmpty)
            #expect(try await send(harness, .POST, path, headers: [("Content-Type", "application/json")], body: body).status == asJSON)
        }
    }

    @Test("An allowed origin may change state and read responses; preflights are approved for it alone")
    func allowedOrigin() async throws {
        let app = "https://app.example"
        try await withCachedFile(configure: { $0.security.allowedOrigins = [app] }) { harness, target in
            let posted = try await send(harness, .POST, "/prefetch", headers: [("Origin", app), ("Content-Type", "application/json")],
                                        body: #"{"urls": ["\#(harness.origin.url("/v.mp4"))"], "bytes": 1000}"#)
            #expect(posted.status == 202)
            #expect(posted.headers.first(name: "access-control-allow-origin") == app)
            let status = try await send(harness, .GET, "/status", headers: [("Origin", app)])
            #expect(status.headers.first(name: "access-control-allow-origin") == app && status.headers.first(name: "vary") == "Origin")
            let foreign = try await send(harness, .GET, "/status", headers: [("Origin", Self.attacker)])
            #expect(foreign.status == 200 && foreign.headers["access-control-allow-origin"].isEmpty, "served, but unreadable to the page")
            let hit = try await send(harness, .GET, target, headers: [("Origin", app), ("Range", "bytes=0-9")])
            #expect(hit.status == 206 && hit.body.elementsEqual(Self.body[0..<10]))
            #expect(hit.headers.first(name: "access-control-allow-origin") == app)
            #expect(hit.headers.first(name: "access-control-expose-headers")?.contains("Content-Range") == true)
            let preflight: [(String, String)] = [("Access-Control-Request-Method", "GET"), ("Access-Control-Request-Headers", "range")]
            let approved = try await send(harness, .OPTIONS, target, headers: [("Origin", app)] + preflight)
            #expect(approved.status == 204)
            #expect(approved.headers.first(name: "access-control-allow-origin") == app)
            #expect(approved.headers.first(name: "access-control-allow-headers")?.contains("Range") == true)
            let refused = try await send(harness, .OPTIONS, target, headers: [("Origin", Self.attacker)] + preflight)
            #expect(refused.status == 403 && refused.headers["access-control-allow-origin"].isEmpty)
        }
    }

    // MARK: Control token

    @Test("With a control token, control routes need it (401 when missing or wrong); players' routes never do")
    func controlToken() async throws {
        let token = CacheProxyConfiguration.Security.makeControlToken()
        #expect(token.count == 64 && token != CacheProxyConfiguration.Security.makeControlToken())
        try await ProxyHarness.run(configure: { $0.security.controlToken = token }) { harness in
            let presentation = TestPresentation.publish("t", on: harness.origin, segments: 2)
            let missing = try await send(harness, .GET, "/status")
            #expect(missing.status == 401 && missing.headers.first(name: "www-authenticate")?.hasPrefix("Bearer") == true)
            #expect(try await send(harness, .GET, "/status", headers: [("Authorization", "Bearer wrong")]).status == 401)
            #expect(try await send(harness, .GET, "/status", headers: [("Authorization", "Bearer \(token)")]).status == 200)
            let json = [("Content-Type", "application/json")]
            let prefetch = #"{"urls": ["\#(harness.origin.url(presentation.masterPath))"], "seconds": 6}"#
            #expect(try await send(harness, .POST, "/prefetch", headers: json, body: prefetch).status == 401)
            #expect(try await send(harness, .GET, "/sessions").status == 401)
            #expect(try await send(harness, .POST, "/prefetch", headers: json + [("Authorization", "Bearer \(token)")], body: prefetch).status == 202)
            // A player plays a session the app opened, without the token.
            let session = try await harness.proxy.openSession(PlaybackSessionRequest(url: OriginURL(parsing: harness.origin.url(presentation.masterPath))))
            let master = try await harness.fetch(session.playlistURL)
            #expect(master.status == 200)
            let media = try #require(SessionClient.uris(in: master.body).first)
            let playlist = try await harness.fetch(media)
            #expect(playlist.status == 200)
            let segment = try #require(SessionClient.uris(in: playlist.body).first)
            #expect(try await harness.fetch(segment).status == 200)
            #expect(try await harness.get(presentation.path("low", segment: 0)).status == 200, "/proxy needs no token")
            session.close()
        }
    }

    @Test("A download handed over by another process (sparsecache fetch) needs the token too, and says so")
    func handedDownloadToken() async throws {
        let token = CacheProxyConfiguration.Security.makeControlToken()
        try await ProxyHarness.run(configure: { $0.security.controlToken = token }) { harness in
            let presentation = TestPresentation.publish("h", on: harness.origin, segments: 2)
            let request = DownloadRequest(url: try OriginURL(parsing: harness.origin.url(presentation.masterPath)))
            let base = "http://127.0.0.1:\(harness.port)"
            let refusal = await #expect(throws: CacheProxyError.self) { try await ProxyDownloadClient(baseURL: base).start(request) }
            #expect(refusal?.message.contains("control token") == true && refusal?.message.contains("401") == true)
            let started = try await ProxyDownloadClient(baseURL: base, controlToken: token).start(request)
            #expect(try await ProxyDownloadClient(baseURL: base, controlToken: token).cancel(started.id).id == started.id)
        }
    }

    // MARK: Request forgery towards origins

    @Test("The proxy refuses to fetch itself, by address and by a name that resolves to it")
    func loop() async throws {
        try await ProxyHarness.run { harness in
            for host in ["127.0.0.1", "localhost", "[::1]", "0.0.0.0"] {
                let response = try await harness.fetch(harness.proxyURL(forOrigin: "http://\(host):\(harness.port)/status"))
                #expect(response.status == 403, "\(host)")
            }
            #expect(harness.proxy.status?.traffic.requests ?? 0 <= 5, "no request reached the proxy through itself")
        }
    }

    @Test("Link-local origins are refused at once, whatever the allow-list says", arguments: [
        "http://169.254.169.254/latest/meta-data/", "http://[fe80::1]/x", "http://[::ffff:169.254.169.254]/x", "http://169.254.1.1:8080/x",
    ])
    func linkLocal(url: String) async throws {
        try await ProxyHarness.run(configure: { $0.allowedHosts = ["169.254.169.254", "[fe80::1]", "[::ffff:169.254.169.254]", "169.254.1.1"] }) { harness async throws in
            let response = try await harness.fetch(harness.proxyURL(forOrigin: url))
            #expect(response.status == 403)
            let reason = String(decoding: response.body, as: UTF8.self)
            #expect(reason.contains("resolves to") && reason.contains("link-local"), "refused before connecting: \(reason)")
        }
    }

    @Test("A name that resolves to a forbidden address is refused before connecting")
    func forbiddenName() async throws {
        let resolver = OriginResolver { host in
            switch host {
            case "metadata.test": [IPAddress(literal: "93.184.216.34"), IPAddress(literal: "169.254.169.254")].compactMap { $0 }
            case "self.test": [IPAddress(literal: "127.0.0.1")].compactMap { $0 }
            default: try await OriginResolver.system.addresses(host)
            }
        }
        try await ProxyHarness.run(configure: { $0.security.resolver = resolver }) { harness in
            #expect(try await harness.fetch(harness.proxyURL(forOrigin: "http://metadata.test/latest")).status == 403)
            #expect(try await harness.fetch(harness.proxyURL(forOrigin: "http://self.test:\(harness.port)/status")).status == 403)
            let prefetched = try await send(harness, .POST, "/prefetch", headers: [("Content-Type", "application/json")],
                                            body: #"{"urls": ["http://metadata.test/a.mp4"], "bytes": 1000}"#)
            #expect(prefetched.status == 202)
            let job = try #require(try await PrefetchTests.settle(harness).jobs.first)
            #expect(job.state == .failed && job.detail?.contains("link-local") == true, "prefetching fetches through the same check")
        }
    }

    @Test("A name that resolves elsewhere when connecting than when checked is caught on the connection")
    func rebindingOrigin() async throws {
        // The check before connecting is told a public address; the connection reaches the proxy.
        let resolver = OriginResolver { _ in [IPAddress(literal: "203.0.113.7")].compactMap { $0 } }
        try await ProxyHarness.run(configure: { $0.security.resolver = resolver }) { harness in
            let response = try await harness.fetch(harness.proxyURL(forOrigin: "http://localhost:\(harness.port)/status"))
            #expect(response.status == 403)
            #expect(String(decoding: response.body, as: UTF8.self).contains("connection reached"))
        }
    }

    @Test("A redirect from an allowed origin to a forbidden one is refused; other redirects are followed")
    func redirects() async throws {
        try await ProxyHarness.run(configure: { $0.allowedHosts = ["127.0.0.1"] }) { harness async throws in
            harness.origin.set("/a.ts", .init([1, 2, 3]))
            func redirect(_ path: String, to location: String) { harness.origin.set(path, .redirect(to: location)) }
            redirect("/metadata", to: "http://169.254.169.254/latest/meta-data/")
            redirect("/self", to: "http://127.0.0.1:\(harness.port)/status")
            redirect("/off-list", to: "http://localhost:\(harness.origin.port)/a.ts")
            redirect("/relative", to: "/a.ts")
            redirect("/loop", to: "/loop")
            for path in ["/metadata", "/self", "/off-list"] {
                #expect(try await harness.get(path).status == 403, "\(path)")
            }
            #expect(try await harness.get("/relative").body == [1, 2, 3])
            #expect(try await harness.get("/loop").status == 502)
            #expect(harness.origin.requests(for: "/a.ts").count == 1, "the redirect off the allow-list was never followed")
        }
    }

    @Test("On a proxy listening beyond loopback, this host's and private addresses are refused unless the allow-list names the host")
    func exposedProxy() async throws {
        let resolver = OriginResolver { host in
            switch host {
            case "media.internal": [IPAddress(literal: "10.1.2.3")].compactMap { $0 }
            case "cdn.example": [IPAddress(literal: "93.184.216.34")].compactMap { $0 }
            case "metadata.internal": [IPAddress(literal: "169.254.169.254")].compactMap { $0 }
            default: try await OriginResolver.system.addresses(host)
            }
        }
        func check(_ url: String, allowing hosts: [String]?) async -> Bool {
            var configuration = CacheProxyConfiguration.server
            configuration.host = "0.0.0.0"
            configuration.allowsNonLoopback = true
            configuration.allowedHosts = hosts
            configuration.security.resolver = resolver
            let guarding = OriginGuard(configuration: configuration)
            guarding.listening(on: 9000)
            do {
                try await guarding.check(OriginURL(parsing: url))
                return true
            } catch {
                return false
            }
        }
        #expect(await check("http://cdn.example/a.ts", allowing: nil))
        for url in ["http://media.internal/a.ts", "http://10.0.0.1/a.ts", "http://192.168.1.20/a.ts", "http://172.20.0.1/a.ts",
                    "http://127.0.0.1:8080/a.ts", "http://localhost:8080/a.ts", "http://[fc00::1]/a.ts", "http://[::1]/a.ts", "http://0.0.0.0:8080/"] {
            #expect(await !check(url, allowing: nil), "\(url)")
        }
        #expect(await check("http://media.internal/a.ts", allowing: ["media.internal", "cdn.example"]))
        #expect(await check("http://10.0.0.1/a.ts", allowing: ["10.0.0.1"]))
        #expect(await !check("http://metadata.internal/a.ts", allowing: ["metadata.internal"]), "link-local, named or not")
        #expect(await !check("http://127.0.0.1:9000/status", allowing: ["127.0.0.1"]), "the proxy itself, named or not")
    }

    @Test("Addresses are classified by where they lead; IPv4-mapped addresses as the IPv4 address", arguments: [
        ("169.254.0.1", IPAddress.Scope.linkLocal), ("[fe80::1]", .linkLocal), ("febf::1", .linkLocal), ("fec0::1", .global),
        ("127.0.0.1", .thisHost), ("127.255.0.9", .thisHost), ("0.0.0.0", .thisHost), ("::1", .thisHost), ("::", .thisHost),
        ("::ffff:127.0.0.1", .thisHost), ("::ffff:169.254.169.254", .linkLocal), ("10.9.8.7", .privateNetwork),
        ("172.16.0.1", .privateNetwork), ("172.31.255.255", .privateNetwork), ("172.32.0.1", .global), ("172.15.0.1", .global),
        ("192.168.0.1", .privateNetwork), ("192.169.0.1", .global), ("fc00::1", .privateNetwork), ("fdff::1", .privateNetwork),
        ("93.184.216.34", .global), ("2606:4700::1", .global),
    ])
    func scopes(literal: String, scope: IPAddress.Scope) throws {
        #expect(try #require(IPAddress(literal: literal)).scope == scope)
    }
}
