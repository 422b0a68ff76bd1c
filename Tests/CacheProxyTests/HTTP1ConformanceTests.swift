import Testing
import TestSupport

/// How the proxy's HTTP/1 edge treats requests at the margins of RFC 9112, probed from a raw
/// socket. These pin today's behaviour, so that a change of the codec under the routes
/// (Docs/plans/NIOHTTP1-REPLACEMENT.md) shows what it changes: ambiguous framing is refused
/// (a request smuggled past a proxy in front of this one is what that guards against), the
/// rest is read as RFC 9112 reads it.
@Suite("HTTP/1 at the margins", .timeLimit(.minutes(2)))
struct HTTP1ConformanceTests {
    /// Requests whose framing or syntax two parsers could read differently.
    static let refused: [(String, String)] = [
        ("Content-Length and Transfer-Encoding together",
         "POST /prefetch HTTP/1.1\r\nHost: HOST\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
        ("two equal Content-Lengths", "POST /prefetch HTTP/1.1\r\nHost: HOST\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}"),
        ("two different Content-Lengths", "POST /prefetch HTTP/1.1\r\nHost: HOST\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}"),
        ("a signed Content-Length", "POST /prefetch HTTP/1.1\r\nHost: HOST\r\nContent-Length: +2\r\n\r\n{}"),
        ("a transfer coding other than chunked last", "POST /prefetch HTTP/1.1\r\nHost: HOST\r\nTransfer-Encoding: gzip\r\n\r\n"),
        ("a bare LF ending a field line", "GET /status HTTP/1.1\r\nHost: HOST\nX-A: b\r\n\r\n"),
        ("an obsolete line folding", "GET /status HTTP/1.1\r\nHost: HOST\r\nX-A: b\r\n c\r\n\r\n"),
        ("white space before the colon", "GET /status HTTP/1.1\r\nHost : HOST\r\n\r\n"),
        ("a NUL in a field value", "GET /status HTTP/1.1\r\nHost: HOST\r\nX-A: b\u{0}c\r\n\r\n"),
        ("a lower-case method", "get /status HTTP/1.1\r\nHost: HOST\r\n\r\n"),
        ("an unknown method", "FOO /status HTTP/1.1\r\nHost: HOST\r\n\r\n"),
        ("HTTP/1.2", "GET /status HTTP/1.2\r\nHost: HOST\r\n\r\n"),
        ("HTTP/2.0 in a request line", "GET /status HTTP/2.0\r\nHost: HOST\r\n\r\n"),
    ]

    @Test("Ambiguous framing and broken syntax get one 400 with Connection: close, and the connection closes",
          arguments: refused.map(\.0))
    func ambiguousRequestsAreRefused(_ name: String) async throws {
        let request = try #require(Self.refused.first { $0.0 == name }?.1)
        try await ProxyHarness.run { harness in
            let connection = try RawConnection(port: harness.port)
            connection.send(request.replacingOccurrences(of: "HOST", with: harness.host))
            let (bytes, closed) = await connection.readUntilClosed(timeout: .seconds(30))
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), "\(name): \(text.prefix(200))")
            #expect(text.lowercased().contains("\r\nconnection: close\r\n"), "\(name)")
            #expect(text.components(separatedBy: "HTTP/1.1 ").count - 1 == 1, "\(name): one answer, not one per parse error")
            #expect(closed, "\(name)")
            #expect(harness.origin.requests.isEmpty, "\(name): nothing reached the origin")
        }
    }

    @Test("A chunked request body is read as its chunks say, extensions and trailer fields included")
    func chunkedRequestBodyIsRead() async throws {
        try await ProxyHarness.run { harness in
            harness.origin.set("/next.mp4", .init(TestBytes(seed: 5).bytes(0, 10_000), contentType: "video/mp4"))
            let json = #"{"urls": ["\#(harness.origin.url("/next.mp4"))"], "bytes": 1000}"#
            let split = json.index(json.startIndex, offsetBy: 10)
            let first = String(json[..<split]), second = String(json[split...])
            let connection = try RawConnection(port: harness.port)
            connection.send("POST /prefetch HTTP/1.1\r\nHost: \(harness.host)\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n"
                + String(first.utf8.count, radix: 16) + ";name=value\r\n" + first + "\r\n"
                + String(second.utf8.count, radix: 16) + "\r\n" + second + "\r\n0\r\nX-Trailer: t\r\n\r\n")
            let response = try #require(await connection.readResponse(timeout: .seconds(30)))
            #expect(response.status == 202, "\(String(decoding: response.body, as: UTF8.self))")
            try await waitUntil("the prefetch fetched the video") { !harness.origin.requests(for: "/next.mp4").isEmpty }
        }
    }

    @Test("Pipelined requests are answered one after the other, in order, on one connection")
    func pipelinedRequestsAreAnsweredInOrder() async throws {
        try await ProxyHarness.run { harness in
            harness.origin.set("/a.ts", .init(TestBytes(seed: 6).bytes(0, 3_000), contentType: "video/mp2t"))
            let target = "/proxy?url=\(percentEncoded(harness.origin.url("/a.ts")))"
            let connection = try RawConnection(port: harness.port)
            connection.send("GET \(target) HTTP/1.1\r\nHost: \(harness.host)\r\nRange: bytes=0-9\r\n\r\n"
                + "GET /nothing HTTP/1.1\r\nHost: \(harness.host)\r\n\r\n"
                + "GET \(target) HTTP/1.1\r\nHost: \(harness.host)\r\nRange: bytes=10-19\r\n\r\n")
            let first = try #require(await connection.readResponse(timeout: .seconds(30)))
            let second = try #require(await connection.readResponse(timeout: .seconds(30)))
            let third = try #require(await connection.readResponse(timeout: .seconds(30)))
            #expect(first.status == 206 && first.body == Array(TestBytes(seed: 6).bytes(0, 10)))
            #expect(second.status == 404)
            #expect(third.status == 206 && third.body == Array(TestBytes(seed: 6).bytes(10, 10)))
        }
    }

    @Test("Garbage behind a pipelined request: the request is answered, then 400, then the connection closes")
    func garbageBehindAPipelinedRequest() async throws {
        try await ProxyHarness.run { harness in
            let connection = try RawConnection(port: harness.port)
            connection.send("GET /status HTTP/1.1\r\nHost: \(harness.host)\r\n\r\nGARBAGE\r\n\r\n")
            let (bytes, closed) = await connection.readUntilClosed(timeout: .seconds(30))
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(text.contains("HTTP/1.1 400 Bad Request\r\n"))
            #expect(text.components(separatedBy: "HTTP/1.1 ").count - 1 == 2, "one answer each")
            #expect(closed)
        }
    }

    @Test("What RFC 9112 allows is served: obs-text in a value, a CRLF before the request line, no Host field")
    func lenienciesTheRFCAllows() async throws {
        try await ProxyHarness.run { harness in
            for request in [
                "GET /status HTTP/1.1\r\nHost: \(harness.host)\r\nX-Name: caf\u{e9}\r\n\r\n",
                "\r\nGET /status HTTP/1.1\r\nHost: \(harness.host)\r\n\r\n",
                "GET /status HTTP/1.0\r\n\r\n",
            ] {
                let connection = try RawConnection(port: harness.port)
                connection.send(request)
                let response = await connection.readResponse(timeout: .seconds(30))
                #expect(response?.status == 200, "\(request.debugDescription)")
            }
        }
    }

    @Test("A request to switch protocols (h2c, as curl --http2 asks) is answered in HTTP/1.1 and ends its connection, which a next request would otherwise wait on",
          arguments: ["Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAoAAAAAIAAAAA",
                      "Connection: upgrade\r\nUpgrade: websocket"])
    func upgradeRequestsEndTheirConnection(_ fields: String) async throws {
        try await ProxyHarness.run { harness in
            let connection = try RawConnection(port: harness.port)
            connection.send("GET /status HTTP/1.1\r\nHost: \(harness.host)\r\n\(fields)\r\n\r\n"
                + "GET /status HTTP/1.1\r\nHost: \(harness.host)\r\n\r\n")
            let response = try #require(await connection.readResponse(timeout: .seconds(30)))
            #expect(response.status == 200)
            #expect(response.headers["connection"]?.lowercased() == "close")
            let started = ContinuousClock.now
            let (rest, closed) = await connection.readUntilClosed(timeout: .seconds(30))
            #expect(closed && rest.isEmpty)
            #expect(ContinuousClock.now - started < .seconds(5), "closed after the answer, not at the head timeout")
        }
    }

    @Test("A request that names an Upgrade without asking for it in Connection keeps its connection")
    func anUpgradeFieldAloneKeepsTheConnection() async throws {
        try await ProxyHarness.run { harness in
            let connection = try RawConnection(port: harness.port)
            connection.send("GET /status HTTP/1.1\r\nHost: \(harness.host)\r\nUpgrade: h2c\r\n\r\n"
                + "GET /status HTTP/1.1\r\nHost: \(harness.host)\r\n\r\n")
            let first = await connection.readResponse(timeout: .seconds(30))
            let second = await connection.readResponse(timeout: .seconds(30))
            #expect(first?.status == 200 && first?.headers["connection"] == nil)
            #expect(second?.status == 200)
        }
    }
}
