import AsyncHTTPClient
import Foundation
import Synchronization
import Testing
import TestSupport

/// Low-latency HLS through the proxy: delivery directives reach the origin, blocking reloads are
/// never answered from the cache, and delta updates come back rewritten.
@Suite("Low-latency HLS", .timeLimit(.minutes(2)))
struct LowLatencyTests {
    /// A live LL-HLS playlist at `/ll/live.m3u8` whose origin answers per directive: `_HLS_skip`
    /// gets a delta update, `_HLS_msn` waits `hold` before answering.
    static func publish(on origin: TestOrigin, hold: Duration = .zero) {
        origin.setResponder("/ll/live.m3u8") { query in
            let query = query ?? ""
            if query.contains("_HLS_msn") { try? await Task.sleep(for: hold) }
            var text = "#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-TARGETDURATION:4\n#EXT-X-PART-INF:PART-TARGET=1.0\n"
            text += "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=3.0,CAN-SKIP-UNTIL=24.0\n#EXT-X-MEDIA-SEQUENCE:100\n"
            if query.contains("_HLS_skip=YES") {
                text += "#EXT-X-SKIP:SKIPPED-SEGMENTS=8\n"
            } else {
                for index in 100..<108 { text += "#EXTINF:4.0,\nseg\(index).ts\n" }
            }
            text += "#EXT-X-PART:DURATION=1.0,URI=\"part108.0.ts\",INDEPENDENT=YES\n#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"part108.1.ts\"\n"
            text += "#EXT-X-RENDITION-REPORT:URI=\"other.m3u8\",LAST-MSN=108,LAST-PART=0\n"
            return .init(Array(text.utf8), contentType: TestPresentation.playlistType)
        }
    }

    @Test("Delivery directives reach the origin appended to its query, through /proxy and through a session")
    func directivesForwarded() async throws {
        try await ProxyHarness.run { harness in
            Self.publish(on: harness.origin)
            let url = harness.origin.url("/ll/live.m3u8") + "?token=abc"
            let response = try await harness.fetch(harness.proxyURL(forOrigin: url) + "&_HLS_msn=108&_HLS_part=1")
            #expect(response.status == 200)
            #expect(harness.origin.requests(for: "/ll/live.m3u8").last?.query == "token=abc&_HLS_msn=108&_HLS_part=1")
            let client = SessionClient(harness: harness)
            let session = try await client.open(#"{"url": "\#(url)"}"#)
            #expect(try await client.get(session.playlist + "?_HLS_msn=109").status == 200)
            #expect(harness.origin.requests(for: "/ll/live.m3u8").last?.query == "token=abc&_HLS_msn=109")
            // Every URI comes back through the proxy: parts, hints and rendition reports too.
            let uris = SessionClient.uris(in: response.body)
            #expect(uris.count == 11 && uris.allSatisfy { $0.hasPrefix("http://127.0.0.1:\(harness.port)/proxy?url=") })
        }
    }

    @Test("_HLS_skip=YES is answered with the origin's delta update, rewritten, and does not replace the cached playlist")
    func deltaUpdate() async throws {
        try await ProxyHarness.run { harness in
            Self.publish(on: harness.origin)
            let base = harness.proxyURL("/ll/live.m3u8")
            let delta = try await harness.fetch(base + "&_HLS_skip=YES")
            let text = String(decoding: delta.body, as: UTF8.self)
            #expect(text.contains("#EXT-X-SKIP:SKIPPED-SEGMENTS=8") && !text.contains("seg100.ts"))
            #expect(SessionClient.uris(in: delta.body).allSatisfy { $0.hasPrefix("http://127.0.0.1:\(harness.port)/proxy?url=") })
            // With the origin down, the stale copy is the last whole playlist, never the delta.
            _ = try await harness.fetch(base)
            _ = try await harness.fetch(base + "&_HLS_skip=YES")
            await harness.origin.stop()
            let stale = try await harness.fetch(base)
            #expect(stale.status == 200 && String(decoding: stale.body, as: UTF8.self).contains("seg100.ts"))
        }
    }

    @Test("A blocking reload is never answered from the cache: with the origin down it fails")
    func blockingNeverFromCache() async throws {
        try await ProxyHarness.run { harness in
            Self.publish(on: harness.origin)
            let base = harness.proxyURL("/ll/live.m3u8")
            let online = try await harness.fetch(base)
            #expect(online.status == 200)
            await harness.origin.stop()
            let stale = try await harness.fetch(base)
            #expect(stale.status == 200, "a plain reload may be served stale")
            let blocking = try await harness.fetch(base + "&_HLS_msn=109")
            #expect(blocking.status == 502)
        }
    }

    @Test("Identical blocking requests share one origin request; different directives do not")
    func coalescing() async throws {
        try await ProxyHarness.run { harness in
            Self.publish(on: harness.origin, hold: .milliseconds(300))
            let base = harness.proxyURL("/ll/live.m3u8")
            try await withThrowingTaskGroup { group in
                for directives in ["&_HLS_msn=109", "&_HLS_msn=109", "&_HLS_msn=109", "&_HLS_msn=109&_HLS_part=1"] {
                    group.addTask {
                        let response = try await harness.fetch(base + directives)
                        #expect(response.status == 200)
                    }
                }
                try await group.waitForAll()
            }
            let queries = harness.origin.requests(for: "/ll/live.m3u8").compactMap(\.query)
            #expect(queries.sorted() == ["_HLS_msn=109", "_HLS_msn=109&_HLS_part=1"])
        }
    }

    @Test("A preload hint's request streams the part as the origin produces it, and a cut part is not cached as complete")
    func preloadHint() async throws {
        try await ProxyHarness.run { harness in
            let part = TestBytes(seed: 77).bytes(0, 30_000)
            // A part being produced: the origin does not know its length, and sends it as it comes.
            harness.origin.set("/ll/part108.1.ts", .init(part, faults: .init(ignoresRange: true, chunked: true, chunkDelay: .milliseconds(50), chunkSize: 5_000)))
            let started = ContinuousClock.now
            let response = try await harness.client.execute(HTTPClientRequest(url: harness.proxyURL("/ll/part108.1.ts")), timeout: .seconds(10))
            var body: [UInt8] = []
            var firstByte: Duration?
            for try await chunk in response.body {
                if firstByte == nil { firstByte = ContinuousClock.now - started }
                body.append(contentsOf: chunk.readableBytesView)
            }
            let total = ContinuousClock.now - started
            #expect(response.status == .ok && body == part)
            #expect(try #require(firstByte) < total - .milliseconds(150), "the first bytes arrive while the origin still produces the part")
            harness.origin.set("/ll/part109.0.ts", .init(part, faults: .init(ignoresRange: true, dropAfter: 10_000, chunked: true, chunkSize: 5_000)))
            _ = try? await harness.get("/ll/part109.0.ts")
            let store = harness.store
            let file = store.reader(for: store.key(for: harness.origin.url("/ll/part109.0.ts"))).file
            #expect(file?.contentLength == nil, "a part cut short has no known length, so it never reads as complete")
            harness.origin.set("/ll/part109.0.ts", .init(part, faults: .init(chunked: true, chunkSize: 5_000)))
            #expect(try await harness.get("/ll/part109.0.ts").body == part)
        }
    }
}
