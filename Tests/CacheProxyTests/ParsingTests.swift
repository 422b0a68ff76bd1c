import CacheProxyParsing
import Testing
import TestSupport

@Suite("Parsing untrusted request and origin headers")
struct ParsingTests {
    @Test("Range headers parse to the specifiers RFC 9110 defines", arguments: [
        ("bytes=0-99", RangeRequest.single(.closed(first: 0, last: 99))),
        ("bytes=500-", .single(.from(first: 500))),
        ("bytes=-500", .single(.suffix(length: 500))),
        ("Bytes = 7-7", .single(.closed(first: 7, last: 7))),
        ("bytes=0-0, -1", .multiple([.closed(first: 0, last: 0), .suffix(length: 1)])),
        ("bytes=1-2,,3-4", .multiple([.closed(first: 1, last: 2), .closed(first: 3, last: 4)])),
    ])
    func rangeParses(header: String, expected: RangeRequest) throws {
        #expect(try RangeRequest(parsing: header) == expected)
    }

    @Test("Invalid Range headers throw typed errors", arguments: [
        ("items=0-1", ParseError.Code.unsupported), ("bytes=", .malformed), ("bytes=5-4", .malformed),
        ("bytes=a-b", .malformed), ("bytes=0-1x", .malformed), ("bytes=-", .malformed),
        ("bytes=99999999999999999999-", .overflow), ("bytes=" + String(repeating: "0-1,", count: 300), .tooLong),
        ("bytes=" + String(repeating: "1-1,", count: 17), .tooMany),
    ])
    func rangeRejects(header: String, code: ParseError.Code) {
        #expect(throws: ParseError(code, "")) { try RangeRequest(parsing: header) }
    }

    @Test("A Range header given as a string reads as its bytes do, the form players send and every other")
    func rangeStringReadsAsBytes() {
        var generator = SeededGenerator(seed: 41)
        let alphabet = Array("bytes=0123456789-, B\t".utf8)
        var inputs = ["bytes=0-99", "bytes=500-", "bytes=18446744073709551615-", "bytes=999999999999999999-", "bytes=1000000000000000000-1",
                      "bytes=5-4", "bytes=0-0", "bytes=00-01", "bytes=-5", "bytes=1-2-3", "bytes=1-2,", "bytes=1-", "bytes=", "bytes=-", ""]
        for _ in 0..<20_000 {
            var bytes = Array("bytes=\(UInt64.random(in: 0...1 << 40, using: &generator))-\(UInt64.random(in: 0...1 << 40, using: &generator))".utf8)
            for _ in 0..<Int.random(in: 0...2, using: &generator) where !bytes.isEmpty {
                let at = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[at] = alphabet.randomElement(using: &generator) ?? 0
                case 1: bytes.insert(alphabet.randomElement(using: &generator) ?? 0, at: at)
                default: bytes.removeSubrange(at...)
                }
            }
            inputs.append(String(decoding: bytes, as: UTF8.self))
        }
        var disagreements: [String] = []
        for input in inputs {
            for limits in [RangeRequestLimits(), RangeRequestLimits(maximumLength: 12, maximumRanges: 1), RangeRequestLimits(maximumRanges: 0)] {
                let fromString = Result { () throws(ParseError) in try RangeRequest(parsing: input, limits: limits) }
                let fromBytes = Result { () throws(ParseError) in try RangeRequest(parsing: Array(input.utf8), limits: limits) }
                let same = switch (fromString, fromBytes) {
                case (.success(let a), .success(let b)): a == b
                case (.failure(let a), .failure(let b)): a.code == b.code
                default: false
                }
                if !same { disagreements.append("\(input.debugDescription): \(fromString) / \(fromBytes)") }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }

    @Test("Ranges resolve against the length, unsatisfiable ones to nil")
    func rangeResolves() {
        #expect(RangeSpecifier.closed(first: 0, last: 99).resolve(length: 50) == 0..<50)
        #expect(RangeSpecifier.closed(first: 50, last: 60).resolve(length: 50) == nil)
        #expect(RangeSpecifier.from(first: 10).resolve(length: 50) == 10..<50)
        #expect(RangeSpecifier.suffix(length: 10).resolve(length: 50) == 40..<50)
        #expect(RangeSpecifier.suffix(length: 100).resolve(length: 50) == 0..<50)
        #expect(RangeSpecifier.suffix(length: 0).resolve(length: 50) == nil)
        #expect(RangeSpecifier.suffix(length: 1).resolve(length: 0) == nil)
        #expect(RangeSpecifier.closed(first: 0, last: UInt64.max).resolve(length: UInt64.max) == 0..<UInt64.max)
    }

    @Test("Content-Range from origins parses and is checked")
    func contentRange() throws {
        #expect(try ContentRange(parsing: "bytes 0-99/1000") == ContentRange(range: 0...99, completeLength: 1000))
        #expect(try ContentRange(parsing: "bytes 0-99/*") == ContentRange(range: 0...99, completeLength: nil))
        #expect(try ContentRange(parsing: "bytes */1000") == ContentRange(range: nil, completeLength: 1000))
        for bad in ["bytes 5-4/10", "bytes 0-10/10", "bytes */*", "items 0-1/2", "bytes 0-1/2 x", "bytes 0-/2"] {
            #expect(throws: ParseError.self) { try ContentRange(parsing: bad) }
        }
    }

    @Test("Proxy request targets name an http(s) URL, percent-decoded and normalized")
    func requestTargets() throws {
        let route = try ProxyRoute(parsing: "/proxy?url=HTTP%3A%2F%2FExample.COM%3A80%2Fa%2Fb.m3u8%3Ft%3D1%23frag")
        guard case .proxy(let url, let directives) = route else { Issue.record("not a proxy route"); return }
        #expect(url.string == "http://example.com/a/b.m3u8?t=1")
        #expect(url.pathExtension == "m3u8")
        #expect(directives.isEmpty)
        #expect(try ProxyRoute(parsing: "/status") == .status)
        #expect(try ProxyRoute(parsing: "/debug/status") == .status)
        #expect(try ProxyRoute(parsing: "/proxy?url=https://[::1]:8443/x.ts") == .proxy(try OriginURL(parsing: "https://[::1]:8443/x.ts"), DeliveryDirectives()))
    }

    @Test("LL-HLS delivery directives are kept as written, in order, to be appended to the origin's query")
    func deliveryDirectives() throws {
        let route = try ProxyRoute(parsing: "/proxy?url=http%3A%2F%2Fh%2Flive.m3u8%3Ftoken%3Dx&_HLS_msn=12&_HLS_part=3&_HLS_skip=YES")
        guard case .proxy(let url, let directives) = route else { Issue.record("not a proxy route"); return }
        #expect(directives.query == "_HLS_msn=12&_HLS_part=3&_HLS_skip=YES")
        #expect(directives.isBlocking && directives.asksForDelta)
        #expect(url.appendingQuery(directives.query).string == "http://h/live.m3u8?token=x&_HLS_msn=12&_HLS_part=3&_HLS_skip=YES")
        #expect(try OriginURL(parsing: "http://h/a.m3u8").appendingQuery("_HLS_skip=v2").string == "http://h/a.m3u8?_HLS_skip=v2")
        let session = try ProxyRoute(parsing: "/sessions/abc-1/index.m3u8?_HLS_msn=4")
        guard case .sessionPlaylist("abc-1", let sessionDirectives) = session else { Issue.record("not a session playlist"); return }
        #expect(sessionDirectives.query == "_HLS_msn=4" && !sessionDirectives.asksForDelta)
        #expect(try ProxyRoute(parsing: "/sessions/abc-1") == .session("abc-1"))
        #expect(try ProxyRoute(parsing: "/sessions") == .sessions)
        #expect(try ProxyRoute(parsing: "/sessions/s/proxy?url=http%3A%2F%2Fh%2Fa.ts")
            == .sessionProxy("s", try OriginURL(parsing: "http://h/a.ts"), DeliveryDirectives()))
    }

    @Test("A URL pasted without percent-encoding is refused with a message that says how to encode it")
    func unencodedURL() {
        #expect {
            try ProxyRoute(parsing: "/proxy?url=http://host/master.m3u8?a=1&b=2")
        } throws: { error in
            guard let error = error as? ParseError else { return false }
            return error.code == .unsupported && error.message.contains("\"b\"") && error.message.contains("percent-encode")
        }
    }

    @Test("Bad request targets throw the code the router maps to a status", arguments: [
        ("/other", ParseError.Code.notFound), ("/proxy", .missing), ("/proxy?url=", .missing),
        ("/proxy?url=ftp%3A%2F%2Fx", .unsupported), ("/proxy?url=http%3A%2F%2Fu%40h%2F", .unsupported),
        ("/proxy?url=http%3A%2F%2Fh%2F%0A", .malformed), ("/proxy?url=%zz", .malformed),
        ("/proxy?url=http://h:0/", .malformed), ("/proxy?url=http://h:65536/", .malformed),
        ("/proxy?url=http:///x", .missing), ("/proxy?url=a&url=b", .malformed),
        ("/proxy?url=http://h/" + String(repeating: "a", count: 20000), .tooLong),
        ("/proxy?x=1&url=http%3A%2F%2Fh%2F", .unsupported), ("/proxy?url=http%3A%2F%2Fh%2F&_HLS_msn=x", .malformed),
        ("/proxy?url=http%3A%2F%2Fh%2F&_HLS_skip=NO", .malformed), ("/proxy?url=http%3A%2F%2Fh%2F&_HLS_msn=", .malformed),
        ("/proxy?url=http%3A%2F%2Fh%2F&_HLS_a%26b=1", .malformed), ("/sessions/a%2Fb", .notFound),
        ("/sessions/" + String(repeating: "a", count: 65), .notFound), ("/sessions/a/other", .notFound),
        ("/sessions/a/index.m3u8?url=x", .unsupported),
    ])
    func requestTargetRejects(target: String, code: ParseError.Code) {
        #expect(throws: ParseError(code, "")) { try ProxyRoute(parsing: target) }
    }
}
