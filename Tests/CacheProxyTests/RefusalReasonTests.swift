@testable import CacheProxy
import Foundation
import Testing
import TestSupport

/// What a player shows of a refused request is its status ("Server returned 400"); the operator
/// reads why in the access log, and a player given the proxy's address without `/proxy` gets a
/// hint instead of the dashboard's HTML.
@Suite("Refused requests say why", .timeLimit(.minutes(1)))
struct RefusalReasonTests {
    @Test("The access log line of a refused request ends with its reason, quoted: an unencoded &, a host off the allow-list, an open breaker")
    func accessLogReasons() async throws {
        var allowed = ""
        var statuses: [Int] = []
        let lines = try await AccessLogTests.lines(configure: { $0.allowedHosts = ["127.0.0.1"] }) { harness in
            harness.origin.set("/a.ts", .init([1, 2, 3], contentType: "video/mp2t"))
            allowed = harness.origin.url("/a.ts")
            let base = "http://127.0.0.1:\(harness.port)"
            statuses.append(try await harness.get("/a.ts").status)
            // An origin URL pasted without percent-encoding: its own query splits at `&`.
            statuses.append(try await harness.fetch(base + "/proxy?url=http://127.0.0.1:1/a.m3u8?a=1&b=2").status)
            statuses.append(try await harness.fetch(harness.proxyURL(forOrigin: "http://elsewhere.example/a.ts")).status)
            // A port where nothing listens, not the origin stopped: the proxy's pooled connection
            // to a stopped origin can fail as closed or reset before any connect is refused.
            let down = try RefusingPort()
            // Three refused connections open the breaker; the fourth request is refused by it.
            for segment in 0..<4 {
                statuses.append(try await harness.fetch(harness.proxyURL(forOrigin: "http://127.0.0.1:\(down.port)/s\(segment).ts")).status)
            }
        }
        #expect(statuses == [200, 400, 403, 502, 502, 502, 502])
        try #require(lines.count == 7, "\(lines)")
        #expect(lines[0].url == allowed && lines[0].error == nil, "a request served has no error field")
        #expect(lines[1].status == "400" && lines[1].error?.hasPrefix(#""unknown parameter \"b\": percent-encode the whole origin URL"#) == true,
                "\(lines[1])")
        #expect(lines[2].status == "403" && lines[2].error == #""elsewhere.example is not on the proxy's allow-list""#, "\(lines[2])")
        for line in lines[3...] {
            #expect(line.status == "502" && line.error?.contains("refused the connection") == true, "\(line)")
        }
    }

    @Test("The reason is quoted and escaped: quotes, backslashes, control bytes")
    func reasonEscaped() {
        let start = ContinuousClock.now
        var record = AccessLogRecord(method: .GET, target: "/proxy?url=x", url: nil, status: 400, bodyBytes: 20, cache: nil, started: start,
                                     firstByte: start, ended: start)
        record.error = "bad \"url\" \\ here\nnext"
        #expect(record.line().hasSuffix(#" error="bad \"url\" \\ here\x0anext""#), "\(record.line())")
        record.error = "plain"
        #expect(record.line().hasSuffix(#" error="plain""#), "always quoted")
    }

    @Test("GET /?url=... (the /proxy forgotten) is 400 with the URL meant; / alone and other parameters still get the dashboard")
    func forgottenProxyPath() async throws {
        try await ProxyHarness.run { harness in
            let base = "http://127.0.0.1:\(harness.port)"
            let encoded = percentEncoded("https://cdn.example/v/master.m3u8")
            let refused = try await harness.fetch(base + "/?url=" + encoded)
            #expect(refused.status == 400)
            let message = String(decoding: refused.body, as: UTF8.self)
            #expect(message.contains("did you mean /proxy?url=\(encoded)?"), "\(message)")
            #expect(refused.headers.first(name: "Content-Type")?.hasPrefix("text/plain") == true)
            let long = try await harness.fetch(base + "/?url=" + String(repeating: "a", count: 300))
            #expect(long.status == 400 && String(decoding: long.body, as: UTF8.self).contains("did you mean /proxy?url=<percent-encoded URL>?"))
            for target in ["/", "/?refresh=1"] {
                let dashboard = try await harness.fetch(base + target)
                #expect(dashboard.status == 200 && dashboard.headers.first(name: "Content-Type")?.hasPrefix("text/html") == true, "\(target)")
            }
        }
    }
}
