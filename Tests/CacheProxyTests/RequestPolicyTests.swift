import CacheProxyParsing
import Testing

@Suite("The request policy: Host, Origin, Content-Type and control token")
struct RequestPolicyTests {
    private let listener = RequestPolicy.Listener(port: 9000, addresses: ["192.168.1.5"])

    private func verdict(
        _ policy: RequestPolicy = RequestPolicy(), method: String = "GET", target: String = "/status", host: String? = "127.0.0.1:9000",
        origin: String? = nil, contentType: String? = nil, authorization: String? = nil, hasBody: Bool = false, preflight: Bool = false
    ) -> RequestPolicy.Verdict {
        policy.verdict(for: RequestPolicy.Request(
            method: method, target: target, hosts: host.map { [$0] } ?? [], origin: origin, contentType: contentType,
            authorization: authorization, hasBody: hasBody, isPreflight: preflight), listener: listener)
    }

    private func status(of verdict: RequestPolicy.Verdict) -> Int {
        if case .refuse(let refusal) = verdict { return refusal.status }
        return 200
    }

    @Test("The proxy's loopback names and its addresses, with its port, pass; other hosts and ports get 421", arguments: [
        ("127.0.0.1:9000", 200), ("localhost:9000", 200), ("LOCALHOST:9000", 200), ("[::1]:9000", 200), ("192.168.1.5:9000", 200),
        ("attacker.example:9000", 421), ("attacker.example", 421), ("127.0.0.1:9001", 421), ("127.0.0.1", 421),
        ("localhost.attacker.example:9000", 421), ("127.0.0.2:9000", 421), ("[::2]:9000", 421),
        ("a b", 400), ("[::1", 400), ("127.0.0.1:0", 400), ("127.0.0.1:99999", 400), ("user@127.0.0.1:9000", 400),
    ])
    func hosts(host: String, expected: Int) {
        #expect(status(of: verdict(host: host)) == expected, "\(host)")
        #expect(status(of: verdict(target: "/proxy?url=x", host: host)) == expected, "a media route too")
    }

    @Test("A request without Host passes; two Host headers get 400")
    func hostCount() {
        #expect(status(of: verdict(host: nil)) == 200)
        let twice = RequestPolicy().verdict(for: .init(method: "GET", target: "/status", hosts: ["127.0.0.1:9000", "127.0.0.1:9000"]),
                                            listener: listener)
        #expect(status(of: twice) == 400)
    }

    @Test("Configured request hosts pass with any port, or with theirs when they name one")
    func configuredHosts() throws {
        let policy = RequestPolicy(requestHosts: [
            RequestAuthority(host: "tv.example", port: nil), try RequestAuthority(parsing: "phone.local:8080".utf8),
        ])
        #expect(status(of: verdict(policy, host: "tv.example")) == 200)
        #expect(status(of: verdict(policy, host: "TV.example:1234")) == 200)
        #expect(status(of: verdict(policy, host: "phone.local:8080")) == 200)
        #expect(status(of: verdict(policy, host: "phone.local:9000")) == 421)
        #expect(status(of: verdict(policy, host: "phone.local")) == 421)
    }

    @Test("Port 80 may be left out of Host")
    func defaultPort() {
        let listener = RequestPolicy.Listener(port: 80, addresses: [])
        let verdict = RequestPolicy().verdict(for: .init(method: "GET", target: "/status", hosts: ["localhost"]), listener: listener)
        #expect(verdict == .pass(corsOrigin: nil))
    }

    @Test("A foreign Origin may not change state on any control route; GETs pass without CORS", arguments: [
        ("POST", "/prefetch"), ("DELETE", "/prefetch"), ("POST", "/sessions"), ("DELETE", "/sessions/s1"), ("POST", "/downloads"),
        ("DELETE", "/downloads/d1"), ("PUT", "/status"), ("POST", "/a-route-added-later"),
    ])
    func foreignOrigin(method: String, target: String) {
        let refused = verdict(method: method, target: target, origin: "https://attacker.example", contentType: "application/json")
        #expect(status(of: refused) == 403)
        #expect(verdict(target: target, origin: "https://attacker.example") == .pass(corsOrigin: nil))
        #expect(verdict(method: method, target: target, contentType: "application/json") == .pass(corsOrigin: nil), "no Origin: not a page")
    }

    @Test("Listed origins and the proxy's own may change state and get CORS; spellings of one origin match")
    func allowedOrigins() throws {
        let policy = RequestPolicy(allowedOrigins: [try RequestOrigin(parsing: "https://app.example"), try RequestOrigin(parsing: "null")])
        let json = "application/json"
        #expect(verdict(policy, method: "POST", target: "/prefetch", origin: "https://app.example", contentType: json)
                == .pass(corsOrigin: "https://app.example"))
        #expect(verdict(policy, method: "POST", target: "/prefetch", origin: "HTTPS://App.Example:443", contentType: json)
                == .pass(corsOrigin: "HTTPS://App.Example:443"))
        #expect(verdict(policy, origin: "null") == .pass(corsOrigin: "null"))
        #expect(status(of: verdict(policy, method: "POST", target: "/prefetch", origin: "https://app.example:8443", contentType: json)) == 403)
        #expect(status(of: verdict(policy, method: "POST", target: "/prefetch", origin: "http://app.example", contentType: json)) == 403)
        #expect(status(of: verdict(policy, method: "POST", target: "/prefetch", origin: "https://app.example/", contentType: json)) == 403)
        #expect(verdict(method: "POST", target: "/prefetch", origin: "http://127.0.0.1:9000", contentType: json)
                == .pass(corsOrigin: "http://127.0.0.1:9000"), "a page the proxy served")
        #expect(status(of: verdict(method: "POST", target: "/prefetch", host: "localhost:9000", origin: "http://127.0.0.1:9000",
                                   contentType: json)) == 403)
    }

    @Test("State changes need Content-Type: application/json", arguments: [
        ("POST", nil, false, 415), ("POST", "text/plain", true, 415), ("POST", "application/x-www-form-urlencoded", true, 415),
        ("POST", "multipart/form-data; boundary=x", true, 415), ("POST", "application/jsonp", true, 415),
        ("POST", "application/json", true, 200), ("POST", "Application/JSON; charset=utf-8", true, 200),
        ("DELETE", nil, false, 200), ("DELETE", "text/plain", false, 415), ("DELETE", nil, true, 415), ("GET", "text/plain", true, 200),
    ] as [(String, String?, Bool, Int)])
    func contentType(method: String, contentType: String?, hasBody: Bool, expected: Int) {
        #expect(status(of: verdict(method: method, target: "/prefetch", contentType: contentType, hasBody: hasBody)) == expected)
    }

    @Test("Media routes need no token and are not control routes", arguments: [
        ("/proxy?url=x", RouteAccess.media), ("/sessions/s1/index.m3u8", .media), ("/sessions/s1/proxy?url=x", .media),
        ("/sessions/s1/index.m3u8?_HLS_msn=3", .media), ("/status", .control), ("/debug/status", .control), ("/metrics", .control),
        ("/entries", .control), ("/", .control), ("/sessions", .control), ("/sessions/s1", .control), ("/sessions/s1/", .control),
        ("/sessions//proxy", .control), ("/proxy/", .control), ("//proxy", .control), ("/prefetch", .control), ("/downloads/d1", .control),
        ("proxy", .control), ("/sessions/s1/proxy/x", .control),
    ])
    func routeAccess(target: String, expected: RouteAccess) {
        #expect(RouteAccess(target: target.utf8) == expected)
    }

    @Test("With a token, control routes need it; media routes never do")
    func token() {
        let policy = RequestPolicy(controlToken: "s3cret-token")
        #expect(status(of: verdict(policy)) == 401)
        #expect(status(of: verdict(policy, authorization: "Bearer wrong")) == 401)
        #expect(status(of: verdict(policy, authorization: "Bearer s3cret-toke")) == 401)
        #expect(status(of: verdict(policy, authorization: "Basic s3cret-token")) == 401)
        #expect(status(of: verdict(policy, authorization: "Bearers3cret-token")) == 401)
        #expect(verdict(policy, authorization: "Bearer s3cret-token") == .pass(corsOrigin: nil))
        #expect(verdict(policy, authorization: "bearer   s3cret-token") == .pass(corsOrigin: nil))
        #expect(status(of: verdict(policy, method: "POST", target: "/prefetch", contentType: "application/json")) == 401)
        #expect(verdict(policy, target: "/proxy?url=x") == .pass(corsOrigin: nil))
        #expect(verdict(policy, target: "/sessions/s1/index.m3u8") == .pass(corsOrigin: nil))
        guard case .refuse(let refusal) = verdict(policy, authorization: "Bearer wrong") else {
            Issue.record("a wrong token was not refused")
            return
        }
        #expect(refusal.challenge?.contains("invalid_token") == true)
    }

    @Test("Preflights are approved for allowed origins only")
    func preflight() throws {
        let policy = RequestPolicy(allowedOrigins: [try RequestOrigin(parsing: "https://app.example")])
        #expect(verdict(policy, method: "OPTIONS", target: "/prefetch", origin: "https://app.example", preflight: true)
                == .approvePreflight(origin: "https://app.example"))
        #expect(status(of: verdict(policy, method: "OPTIONS", target: "/proxy?url=x", origin: "https://attacker.example", preflight: true)) == 403)
    }

    @Test("Origins are read as serialized origins or null", arguments: [
        ("https://a.example", "https://a.example"), ("HTTP://A.example:80", "http://a.example"), ("https://a.example:8443", "https://a.example:8443"),
        ("capacitor://localhost", "capacitor://localhost"), ("null", "null"), ("http://[::1]:9000", "http://[::1]:9000"),
    ])
    func origins(text: String, serialized: String) throws {
        #expect(try RequestOrigin(parsing: text).description == serialized)
    }

    @Test("Anything but a serialized origin is malformed", arguments: [
        "", "a.example", "https://", "https://a.example/", "https://a.example/path", "1http://a", "ht tp://a", "https://a:b", "https://u@a",
        "https://a b", String(repeating: "a", count: 500),
    ])
    func badOrigins(text: String) {
        #expect(throws: ParseError.self) { try RequestOrigin(parsing: text) }
    }
}
