@testable import CacheProxy
import Foundation
import Logging
import Testing
import TestSupport

@Suite("The access log: one key=value line per request")
struct AccessLogTests {
    static let body = TestBytes(seed: 43).bytes(0, 100_000)
    /// The whole line: fields in this order, times in milliseconds with three decimals, and for a
    /// refused request the reason, quoted.
    static var linePattern: Regex<(Substring, Substring, Substring, Substring, Substring, Substring, Substring, Substring, Substring?)> {
        #/method=(\S+) url=(\S+) status=(\d{3}|-) bytes=(\d+) cache=(hit|partial|miss|pass|-) ttfb_ms=(\d+\.\d{3}|-) total_ms=(\d+\.\d{3})(?: error=("(?:[^"\\]|\\.)*"))?/#
    }

    struct Line {
        var method: String, url: String, status: String, bytes: Int, cache: String, ttfb: Double?, total: Double
        /// The `error` field as written (quoted), when there is one.
        var error: String? = nil
    }

    static func parse(_ text: String) throws -> Line {
        let match = try #require(text.wholeMatch(of: linePattern), "not an access log line: \(text)")
        let fields = match.output
        return Line(method: String(fields.1), url: String(fields.2), status: String(fields.3), bytes: Int(fields.4) ?? -1,
                    cache: String(fields.5), ttfb: Double(fields.6), total: Double(fields.7) ?? -1, error: fields.8.map(String.init))
    }

    /// Runs `body` against a proxy whose log is captured; returns the access lines once the
    /// proxy has stopped (which writes every pending line first).
    static func lines(configure: (inout CacheProxyConfiguration) -> Void = { _ in },
                      _ body: (ProxyHarness) async throws -> Void) async throws -> [Line] {
        let log = CapturedLog()
        try await ProxyHarness.run(configure: configure, logger: log.logger(), body)
        return try log.accessLines.map(parse)
    }

    @Test("Misses, hits from raw bytes and from the HTTP decoder, and control routes each get one line", .timeLimit(.minutes(1)))
    func outcomes() async throws {
        var origin = ""
        let lines = try await Self.lines { harness in
            harness.origin.set("/a.mp4", .init(Self.body, contentType: "video/mp4"))
            origin = harness.origin.url("/a.mp4")
            _ = try await harness.get("/a.mp4")
            _ = try await harness.get("/a.mp4", headers: [("Range", "bytes=10-19")])
            let connection = try RawConnection(port: harness.port)
            let target = String(harness.proxyURL("/a.mp4").dropFirst("http://127.0.0.1:\(harness.port)".count))
            connection.send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(harness.port)\r\nConnection: keep-alive, x-other\r\nRange: bytes=0-99\r\n\r\n")
            #expect(await connection.readResponse(timeout: .seconds(10))?.status == 206)
            _ = try await harness.get("/a.mp4", method: .HEAD)
            _ = try await harness.fetch("http://127.0.0.1:\(harness.port)/status")
            _ = try await harness.fetch("http://127.0.0.1:\(harness.port)/proxy?url=ftp%3A%2F%2Fx")
        }
        try #require(lines.count == 6, "one line per request: \(lines)")
        #expect((lines[0].method, lines[0].url, lines[0].status, lines[0].bytes, lines[0].cache) == ("GET", origin, "200", Self.body.count, "miss"))
        #expect((lines[1].method, lines[1].url, lines[1].status, lines[1].bytes, lines[1].cache) == ("GET", origin, "206", 10, "hit"))
        #expect((lines[2].method, lines[2].url, lines[2].status, lines[2].bytes, lines[2].cache) == ("GET", origin, "206", 100, "hit"))
        #expect((lines[3].method, lines[3].url, lines[3].status, lines[3].bytes, lines[3].cache) == ("HEAD", origin, "200", 0, "hit"))
        #expect((lines[4].url, lines[4].status, lines[4].cache) == ("/status", "200", "-"))
        #expect((lines[5].url, lines[5].status, lines[5].cache) == ("/proxy?url=ftp%3A%2F%2Fx", "400", "-"))
        for line in lines {
            let ttfb = try #require(line.ttfb)
            #expect(ttfb <= line.total)
        }
    }

    @Test("A response of cached and fetched bytes is partial; a playlist with delivery directives is passed", .timeLimit(.minutes(1)))
    func partialAndPass() async throws {
        let lines = try await Self.lines { harness in
            harness.origin.set("/a.mp4", .init(Self.body, contentType: "video/mp4"))
            harness.origin.set("/live.m3u8", .init(Array("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\ns1.ts\n".utf8),
                                                   contentType: "application/vnd.apple.mpegurl"))
            _ = try await harness.get("/a.mp4", headers: [("Range", "bytes=0-999")])
            _ = try await harness.get("/a.mp4")
            _ = try await harness.get("/live.m3u8")
            _ = try await harness.fetch(harness.proxyURL("/live.m3u8") + "&_HLS_msn=1")
        }
        #expect(lines.map(\.cache) == ["miss", "partial", "miss", "pass"])
        #expect(lines[3].url.hasSuffix("/live.m3u8?_HLS_msn=1"), "the URL fetched, with its directive: \(lines[3].url)")
    }

    @Test("--access-log off writes no line", .timeLimit(.minutes(1)))
    func off() async throws {
        let lines = try await Self.lines(configure: { $0.writesAccessLog = false }) { harness in
            harness.origin.set("/a.mp4", .init(Self.body, contentType: "video/mp4"))
            _ = try await harness.get("/a.mp4")
            _ = try await harness.get("/a.mp4")
        }
        #expect(lines.isEmpty)
    }

    @Test("Circuit breakers opening and closing are logged at notice", .timeLimit(.minutes(1)))
    func breakerNotices() async throws {
        let log = CapturedLog()
        let down = try RefusingPort()
        let port = down.port
        try await ProxyHarness.run(configure: {
            $0.breaker = CircuitBreakerConfiguration(failureThreshold: 2, coolDown: .milliseconds(200))
        }, logger: log.logger()) { harness in
            let url = harness.proxyURL(forOrigin: "http://127.0.0.1:\(port)/a.ts")
            for _ in 0..<2 { #expect(try await harness.fetch(url).status == 502) }
            let opened = log.all.filter { $0.level == .notice && $0.message.hasPrefix("circuit breaker opened") }
            #expect(opened.count == 1)
            #expect(opened.first?.metadata["origin"] == "127.0.0.1:\(port)")
            // The origin comes back on the same port; after the cool-down the trial closes the breaker.
            down.release()
            let back = try await TestOrigin.start(port: port)
            back.set("/a.ts", .init(Self.body))
            try await Task.sleep(for: .milliseconds(300))  // the breaker's cool-down
            #expect(try await harness.fetch(url).status == 200)
            let closed = log.all.filter { $0.level == .notice && $0.message.hasPrefix("circuit breaker closed") }
            #expect(closed.count == 1)
            await back.stop()
        }
    }

    @Test("A target that names no origin is written as received, quoted and escaped when it must be", arguments: [
        ("/plain", "/plain"), ("/with space", #""/with space""#), (#"/a"b\c"#, #""/a\"b\\c""#), ("/tab\t", #""/tab\x09""#),
        ("/é", #""/\xc3\xa9""#),
    ])
    func quoting(target: String, written: String) {
        let start = ContinuousClock.now
        let record = AccessLogRecord(method: .GET, target: target, url: nil, status: 404, bodyBytes: 10, cache: nil, started: start,
                                     firstByte: start + .microseconds(1500), ended: start + .milliseconds(12))
        #expect(record.line() == "method=GET url=\(written) status=404 bytes=10 cache=- ttfb_ms=1.500 total_ms=12.000")
    }

    @Test("A request whose response never started has no status and no time to first byte")
    func unanswered() {
        let start = ContinuousClock.now
        let record = AccessLogRecord(method: .GET, target: "/proxy?url=http%3A%2F%2Fh%2Fa.ts", url: "http://h/a.ts", status: nil, bodyBytes: 0,
                                     cache: .miss, started: start, firstByte: nil, ended: start + .microseconds(7))
        #expect(record.line() == "method=GET url=http://h/a.ts status=- bytes=0 cache=miss ttfb_ms=- total_ms=0.007")
    }
}
