import CacheProxy
import Foundation
import Testing
import TestSupport

/// The window a session keeps fetched, as Docs/PROXY.md documents it: its default size while
/// hiding, a seek that keeps a nearly done fetch, and a player switching variants.
@Suite("A session's buffer window", .timeLimit(.minutes(2)))
struct SessionWindowTests {
    /// The segments of variant `name` the origin was asked for.
    static func fetched(_ name: String, of presentation: TestPresentation, harness: ProxyHarness) -> Set<Int> {
        Set((0..<presentation.segments).filter { index in
            harness.origin.requests.contains { $0.path == presentation.path(name, segment: index) }
        })
    }

    static func sessionURL(_ session: SessionClient.Opened, client: SessionClient, origin: String) -> String {
        "\(client.base)/sessions/\(session.id)/proxy?url=" + percentEncoded(origin)
    }

    @Test("hideUntilBuffered without bufferAhead buffers 3 segments ahead, no more")
    func hidingBuffersThreeByDefault() async throws {
        try await ProxyHarness.run { harness in
            let presentation = TestPresentation.publish("d3", on: harness.origin, segments: 8)
            let client = SessionClient(harness: harness)
            let session = try await client.open(#"{"url": "\#(harness.origin.url(presentation.mediaPath("low")))", "hideUntilBuffered": true}"#)
            #expect(try await SessionClient.eventually { (try await client.status(session.id)["bufferedSegments"] as? Int) == 3 })
            // Nothing runs or waits on the lane any more: the window is filled and stays at 3.
            let outcomes = try await SessionClient.originSettled(harness, prefix: "/d3/low/s")
            #expect(outcomes == [.complete, .complete, .complete])
            #expect(Self.fetched("low", of: presentation, harness: harness) == [0, 1, 2])
            let listed = SessionClient.lines(try await client.get(session.playlist).body, prefix: "#EXTINF")
            #expect(listed.count == 3, "the playlist lists the three cached segments")
        }
    }

    @Test("A seek cancels a fetch that left the window unless it is nearly done (at most 256 KiB or a quarter left)")
    func seekKeepsANearlyDoneFetch() async throws {
        try await ProxyHarness.run { harness in
            let size = 1_000_000
            let presentation = TestPresentation.publish("nd", on: harness.origin, segments: 10, segmentSize: size)
            // Segment 0 pauses with 100,000 bytes left (nearly done), segment 1 with 900,000 left
            // (not); once let go, each sends the rest at about 500 KB/s.
            let nearlyDone = TestGate(), farFromDone = TestGate()
            for (segment, pauseAfter, gate) in [(0, 900_000, nearlyDone), (1, 100_000, farFromDone)] {
                harness.origin.update(presentation.path("low", segment: segment)) {
                    $0.faults = TestOrigin.Faults(chunkDelay: .milliseconds(20), chunkSize: 10_000, pauseAfter: pauseAfter, gate: gate)
                }
            }
            let client = SessionClient(harness: harness)
            let session = try await client.open(#"{"url": "\#(harness.origin.url(presentation.mediaPath("low")))", "bufferAhead": {"segments": 2}}"#)
            let store = harness.store
            func cached(_ segment: Int) -> UInt64 {
                store.reader(for: store.key(for: harness.origin.url(presentation.path("low", segment: segment)))).file?.cachedLength(from: 0) ?? 0
            }
            try await waitUntil("both fetches stored what came before their pause") { cached(0) == 900_000 && cached(1) == 100_000 }
            // The player seeks to segment 6: the window becomes 7 and 8.
            let seek = Self.sessionURL(session, client: client, origin: harness.origin.url(presentation.path("low", segment: 6)))
            #expect(try await client.get(seek, headers: [("Range", "bytes=0-99")]).status == 206)
            nearlyDone.open()
            farFromDone.open()
            let path0 = presentation.path("low", segment: 0), path1 = presentation.path("low", segment: 1)
            try await waitUntil("the origin finished both fetches") {
                !harness.origin.outcomes(for: path0).isEmpty && !harness.origin.outcomes(for: path1).isEmpty
            }
            #expect(harness.origin.outcomes(for: path0) == [.complete] && cached(0) == UInt64(size), "the nearly done fetch finished")
            #expect(harness.origin.outcomes(for: path1) == [.abandoned] && cached(1) < UInt64(size), "the other was cancelled")
            #expect(await SessionClient.eventually { Self.fetched("low", of: presentation, harness: harness).isSuperset(of: [7, 8]) })
        }
    }

    @Test("When a player without a locked quality switches variants, the window follows it")
    func windowFollowsAVariantSwitch() async throws {
        try await ProxyHarness.run { harness in
            let presentation = TestPresentation.publish("sw", on: harness.origin, segments: 10)
            let client = SessionClient(harness: harness)
            let session = try await client.open(#"{"url": "\#(harness.origin.url(presentation.masterPath))", "bufferAhead": {"segments": 2}}"#)
            // The player reads the multivariant playlist, then plays the low variant from segment 3.
            _ = try await client.get(session.playlist)
            for (variant, segment) in [("low", 3), ("mid", 5)] {
                let media = Self.sessionURL(session, client: client, origin: harness.origin.url(presentation.mediaPath(variant)))
                #expect(try await client.get(media).status == 200)
                let url = Self.sessionURL(session, client: client, origin: harness.origin.url(presentation.path(variant, segment: segment)))
                #expect(try await client.get(url).status == 200)
                #expect(await SessionClient.eventually {
                    Self.fetched(variant, of: presentation, harness: harness).isSuperset(of: [segment, segment + 1, segment + 2])
                }, "the window follows \(variant) from segment \(segment)")
            }
            // Once settled: the low variant was buffered only while played, the mid one from 6.
            _ = try await SessionClient.originSettled(harness, prefix: "/sw/")
            #expect(Self.fetched("mid", of: presentation, harness: harness) == [5, 6, 7])
            #expect(Self.fetched("high", of: presentation, harness: harness).isEmpty)
            let position = try #require(try await client.status(session.id)["position"] as? [String: Any])
            #expect(position["segment"] as? Int == 5)
        }
    }
}
