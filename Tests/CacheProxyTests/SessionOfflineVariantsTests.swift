import Foundation
import Testing
import TestSupport

/// A session's multivariant playlist follows the rule `/proxy?url=` follows (issue 37, item 3):
/// served from the cache while the origin cannot be reached, it lists only the variants and
/// renditions that can start from the cache, so that the app's player neither picks nor switches
/// to one whose every request would fail.
@Suite("Offline session multivariant playlists list what is cached", .timeLimit(.minutes(2)))
struct SessionOfflineVariantsTests {
    /// A session with no quality lock over a presentation with audio, whose player played the
    /// lowest variant's first segment and its audio's.
    private struct Played {
        var client: SessionClient
        var session: SessionClient.Opened
    }

    private func playLowest(_ harness: ProxyHarness, root: String, body: String = "") async throws -> Played {
        let presentation = TestPresentation.publish(root, on: harness.origin, segments: 3, audio: true)
        let client = SessionClient(harness: harness)
        let session = try await client.open(#"{"url": "\#(harness.origin.url(presentation.masterPath))"\#(body)}"#)
        let uris = SessionClient.uris(in: try await client.get(session.playlist).body)
        for name in ["low", "audio"] {
            let media = try #require(uris.first { $0.contains("%2F\(root)%2F\(name)%2Findex.m3u8") }, "\(uris)")
            let segments = SessionClient.uris(in: try await client.get(media).body)
            #expect(try await client.get(try #require(segments.first)).status == 200)
        }
        return Played(client: client, session: session)
    }

    private func variants(_ played: Played) async throws -> [String] {
        SessionClient.lines(try await played.client.get(played.session.playlist).body, prefix: "#EXT-X-STREAM-INF")
    }

    @Test("Origin stopped: a session's multivariant playlist lists only the variant its player played, with its audio")
    func originStopped() async throws {
        try await ProxyHarness.run(configure: OfflineVariantsTests.configure) { harness in
            let played = try await playLowest(harness, root: "so")
            #expect(try await variants(played).count == 3, "with the origin up, every variant is listed")
            await harness.origin.stop()
            // As for /proxy?url=: filtered once the proxy knows the origin is gone, which the
            // first revalidation after the stop tells it (within 250 ms, or a loaded machine's later).
            #expect(try await SessionClient.eventually(timeout: .seconds(30)) { try await variants(played).count == 1 })
            let master = try await played.client.get(played.session.playlist)
            #expect(master.status == 200)
            let listed = SessionClient.lines(master.body, prefix: "#EXT-X-STREAM-INF")
            #expect(listed.count == 1 && listed.first?.contains("BANDWIDTH=800000") == true, "\(listed)")
            #expect(SessionClient.lines(master.body, prefix: "#EXT-X-I-FRAME-STREAM-INF").isEmpty)
            #expect(SessionClient.lines(master.body, prefix: "#EXT-X-MEDIA").count == 1, "the cached audio rendition stays")
        }
    }

    @Test("Origin stopped, a session capped below the cached variant: its cap still holds, nothing uncached is added")
    func capStillHolds() async throws {
        try await ProxyHarness.run(configure: OfflineVariantsTests.configure) { harness in
            let played = try await playLowest(harness, root: "sc", body: #", "maxBandwidth": 2000000"#)
            #expect(try await variants(played).count == 2, "the cap drops the high variant")
            await harness.origin.stop()
            #expect(try await SessionClient.eventually(timeout: .seconds(30)) { try await variants(played).count == 1 })
            #expect(try await variants(played).first?.contains("BANDWIDTH=800000") == true)
        }
    }
}
