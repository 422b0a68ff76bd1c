import CacheProxy
import CacheProxyParsing
import Foundation
import Testing

/// The connection reads a `POST` body up to the limit its route's entry declares, not one limit
/// for every route.
@Suite("Body limits by route", .timeLimit(.minutes(2)))
struct RouteBodyLimitTests {
    /// JSON whitespace after a valid body's first member, so that a body reaches `bytes` exactly.
    private static func padded(_ start: String, to bytes: Int) -> String {
        let end = "}"
        return start + String(repeating: " ", count: max(0, bytes - start.utf8.count - end.utf8.count)) + end
    }

    @Test("A session request over the prefetch body limit but within its own opens the session")
    func sessionBodyBeyondThePrefetchLimit() async throws {
        try await ProxyHarness.run(configure: { $0.limits.prefetch.maximumBodyBytes = 1024 }) { harness in
            let presentation = TestPresentation.publish("p", on: harness.origin, segments: 2)
            let body = Self.padded(#"{"url": "\#(harness.origin.url(presentation.masterPath))""#, to: 4096)
            let response = try await SessionClient(harness: harness).send(.POST, "/sessions", body: body)
            #expect(response.status == 201, "\(String(decoding: response.body, as: UTF8.self))")
        }
    }

    @Test("A prefetch request within the session limit but over its own is refused with 413 naming its limit")
    func prefetchBodyBeyondItsLimit() async throws {
        try await ProxyHarness.run(configure: { $0.limits.prefetch.maximumBodyBytes = 1024 }) { harness in
            let body = Self.padded(#"{"urls": ["http://127.0.0.1:9/a.m3u8"], "seconds": 6"#, to: 1025)
            let response = try await SessionClient(harness: harness).send(.POST, "/prefetch", body: body)
            #expect(response.status == 413)
            #expect(SessionClient.object(response.body)?["error"] as? String == "a prefetch request is limited to 1024 bytes")
        }
    }

    @Test("Each route that reads a body takes it up to its declared limit and refuses one byte more with 413", arguments: [
        ("/downloads", #"{"url": "http://127.0.0.1:9/a.m3u8""#, DownloadRequest.maximumBodyBytes, "a download request"),
        ("/entries/pin", #"{"url": "http://127.0.0.1:9/a.ts""#, EntryRequest.maximumBodyBytes, "an entry request"),
        ("/evict", #"{"to": 1000000000"#, EvictRequest.maximumBodyBytes, "an evict request"),
    ])
    func declaredLimits(path: String, start: String, limit: Int, what: String) async throws {
        try await ProxyHarness.run { harness in
            let client = SessionClient(harness: harness)
            let within = try await client.send(.POST, path, body: Self.padded(start, to: limit))
            #expect(within.status != 413, "\(String(decoding: within.body, as: UTF8.self))")
            let over = try await client.send(.POST, path, body: Self.padded(start, to: limit + 1))
            #expect(over.status == 413)
            #expect(SessionClient.object(over.body)?["error"] as? String == "\(what) is limited to \(limit) bytes")
        }
    }
}
