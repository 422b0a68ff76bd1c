import CacheProxyParsing
import HLS
import Testing
import TestSupport

/// One spelling of a variant for sessions, prefetching, downloads and `fetch --variant`: a bare
/// number under 10,000 is a height meant (`720`), refused with a hint, never read as 720 bits/s
/// (which picked the lowest variant).
@Suite("How a variant is named", .timeLimit(.minutes(2)))
struct VariantSpellingTests {
    static let hint = #"use "720p" for a resolution, or bits/s"#

    @Test("\"quality\": 720 is refused with a hint to write \"720p\"; 720p, 10000 and more are taken", arguments: [
        (#"720"#, nil), (#"9999"#, nil), (#"1"#, nil), (#""720p""#, HLSQuality.height(720)),
        (#"10000"#, .bandwidth(10_000)), (#"2500000"#, .bandwidth(2_500_000)), (#""lowest""#, .lowest),
    ])
    func sessionQuality(value: String, expected: HLSQuality?) throws {
        let body = Array(#"{"url": "http://x/a.m3u8", "quality": \#(value)}"#.utf8)
        guard let expected else {
            let error = #expect(throws: ParseError.self) { try PlaybackSessionRequest(parsing: body) }
            #expect(error?.field == #""quality""#)
            if value == "720" { #expect(error?.message.contains(Self.hint) == true, "\(String(describing: error?.message))") }
            return
        }
        #expect(try PlaybackSessionRequest(parsing: body).quality == expected)
    }

    @Test("Prefetch and download variants take the same spellings")
    func prefetchAndDownloadVariants() throws {
        let prefetch = { (variant: String) throws(ParseError) in
            try PrefetchRequest(parsing: Array(#"{"urls": ["http://x/a.m3u8"], "seconds": 6, "variant": \#(variant)}"#.utf8)).variant
        }
        let download = { (variant: String) throws(ParseError) in
            try DownloadRequest(parsing: Array(#"{"url": "http://x/a.m3u8", "variant": \#(variant)}"#.utf8)).variant
        }
        #expect(try prefetch(#""720p""#) == .height(720))
        #expect(try download(#""1080p""#) == .height(1080))
        #expect(try prefetch("1200000") == .closest(1_200_000))
        for parse in [prefetch, download] {
            let error = #expect(throws: ParseError.self) { try parse("720") }
            #expect(error?.field == #""variant""#)
            #expect(error?.message.contains(Self.hint) == true, "\(String(describing: error?.message))")
        }
        #expect(PrefetchRequest.VariantChoice.height(720).quality == .height(720))
    }

    @Test("POST /sessions with \"quality\": 720 answers 400 with the hint")
    func sessionRouteHint() async throws {
        try await ProxyHarness.run { harness in
            TestPresentation.publish("q", on: harness.origin)
            let body = #"{"url": "\#(harness.origin.url("/q/master.m3u8"))", "quality": 720}"#
            let response = try await SessionClient(harness: harness).send(.POST, "/sessions", body: body)
            #expect(response.status == 400)
            let json = try #require(SessionClient.object(response.body))
            #expect(json["field"] as? String == #""quality""#)
            #expect((json["error"] as? String)?.contains(Self.hint) == true)
        }
    }

    @Test("fetch --variant 720p downloads the 720p variant; --variant 720 is a usage error with the hint")
    func fetchTakesAHeight() async throws {
        let origin = try await TestOrigin.start()
        TestPresentation.publish("f", on: origin, segments: 2)
        let cache = TemporaryDirectory("fetch-height")
        let refused = try await StoreControlTests.sparsecache(["fetch", origin.url("/f/master.m3u8"), "--variant", "720", "--cache-dir", cache.path])
        #expect(refused.status == 2 && refused.error.contains("720p"), "\(refused.error)")
        #expect(origin.requests.isEmpty)
        let fetched = try await StoreControlTests.sparsecache(["fetch", origin.url("/f/master.m3u8"), "--variant", "720p", "--cache-dir", cache.path])
        #expect(fetched.status == 0, "\(fetched.error)")
        let segments = origin.requests.map(\.path).filter { $0.hasSuffix(".ts") }
        await origin.stop()
        #expect(Set(segments) == ["/f/mid/s0.ts", "/f/mid/s1.ts"], "the 1280x720 variant, and no other")
    }
}
