import Foundation
import Testing
import TestSupport

/// A paused player: a session left without requests for its idle timeout goes idle (its fetches
/// stop) but keeps its URLs, and its player's next request resumes it. Only `DELETE` closes it,
/// or a new session that needs an idle one's place past the limit.
@Suite("Paused players and idle sessions", .timeLimit(.minutes(2)))
struct SessionIdleTests {
    /// A player that played and paused: a presentation published under `root`, a session over
    /// its lowest variant whose player played the first two segments, idle by now.
    private struct Paused {
        var client: SessionClient
        var presentation: TestPresentation
        var session: SessionClient.Opened
        var media: String
        var segments: [String]
    }

    private func playThenPause(_ harness: ProxyHarness, root: String, idleTimeout: Double = 0.3) async throws -> Paused {
        let presentation = TestPresentation.publish(root, on: harness.origin, segments: 4)
        let client = SessionClient(harness: harness)
        let session = try await client.open(
            #"{"url": "\#(harness.origin.url(presentation.masterPath))", "quality": "lowest", "idleTimeout": \#(idleTimeout)}"#)
        let media = try #require(SessionClient.uris(in: try await client.get(session.playlist).body).first)
        let segments = SessionClient.uris(in: try await client.get(media).body)
        for index in 0..<2 { #expect(try await client.get(segments[index]).body == presentation.segmentBytes(variant: 0, segment: index)) }
        #expect(try await SessionClient.eventually(timeout: .seconds(30)) { try await client.status(session.id)["state"] as? String == "idle" })
        return Paused(client: client, presentation: presentation, session: session, media: media, segments: segments)
    }

    @Test("A paused player resumes past the idle timeout: its playlists and cached segments answer 200, even offline; DELETE then gives 410")
    func pausedPlayerResumes() async throws {
        try await ProxyHarness.run { harness in
            let paused = try await playThenPause(harness, root: "p")
            let (client, presentation, session, media, segments) = (paused.client, paused.presentation, paused.session, paused.media, paused.segments)
            await harness.origin.stop()
            let playlist = try await client.get(session.playlist)
            #expect(playlist.status == 200 && SessionClient.uris(in: playlist.body) == [media])
            let mediaAgain = try await client.get(media)
            #expect(mediaAgain.status == 200 && SessionClient.uris(in: mediaAgain.body) == segments)
            for index in 0..<2 {
                let segment = try await client.get(segments[index])
                #expect(segment.status == 200 && segment.body == presentation.segmentBytes(variant: 0, segment: index))
            }
            // On a loaded machine the short idle timeout may pass between two of these requests
            // and the session pause and resume again: at least once, and never closed.
            let status = try await client.status(session.id)
            #expect(status["state"] as? String != "closed" && (status["resumes"] as? Int ?? 0) >= 1, "\(status)")
            #expect((status["position"] as? [String: Any])?["segment"] as? Int == 1, "the position survived the pause")
            #expect(try await client.send(.DELETE, "/sessions/\(session.id)").status == 200)
            #expect(try await client.get(session.playlist).status == 410)
            #expect(try await client.get(segments[0]).status == 410)
        }
    }

    @Test("Two requests resuming one idle session at once both get 200 and resume it once")
    func concurrentResume() async throws {
        try await ProxyHarness.run { harness in
            let paused = try await playThenPause(harness, root: "c", idleTimeout: 1)
            let (client, presentation, session, media, segments) = (paused.client, paused.presentation, paused.session, paused.media, paused.segments)
            // One of the two is a miss the origin takes about a second to send, so the requests
            // overlap whatever the machine's load: a request in flight keeps the session active.
            let slow = TestOrigin.Faults(chunkDelay: .milliseconds(100), chunkSize: 2_000)
            harness.origin.set(presentation.path("low", segment: 3),
                               .init(presentation.segmentBytes(variant: 0, segment: 3), contentType: "video/mp2t", faults: slow))
            // On a loaded machine the session may already have paused and resumed while it played.
            let resumedBefore = try await client.status(session.id)["resumes"] as? Int ?? 0
            async let first = client.get(segments[3])
            async let second = client.get(media)
            let statuses = try await [first.status, second.status]
            #expect(statuses == [200, 200])
            let status = try await client.status(session.id)
            #expect(status["resumes"] as? Int == resumedBefore + 1, "\(status)")
        }
    }

    @Test("An idle session's fetches stop; resumed, it buffers again from the player's position")
    func resumedSessionBuffers() async throws {
        try await ProxyHarness.run { harness in
            let slow = TestOrigin.Faults(chunkDelay: .milliseconds(100), chunkSize: 2_000)
            let presentation = TestPresentation.publish("b", on: harness.origin, segments: 6, faults: slow)
            let client = SessionClient(harness: harness)
            let session = try await client.open(
                #"{"url": "\#(harness.origin.url(presentation.mediaPath("low")))", "bufferAhead": {"segments": 6}, "idleTimeout": 0.3}"#)
            #expect(try await SessionClient.eventually(timeout: .seconds(30)) { try await client.status(session.id)["state"] as? String == "idle" })
            // Every fetch it started was cut (a segment takes the origin about a second).
            let outcomes = try await SessionClient.originSettled(harness, prefix: "/b/low/s")
            #expect(!outcomes.isEmpty && outcomes.allSatisfy { $0 == .abandoned }, "\(outcomes)")
            // The origin is fast again: what follows is about the session, not the link.
            TestPresentation.publish("b", on: harness.origin, segments: 6)
            let segments = SessionClient.uris(in: try await client.get(session.playlist).body)
            #expect(try await client.get(segments[3]).body == presentation.segmentBytes(variant: 0, segment: 3))
            let store = harness.store
            let key = store.key(for: harness.origin.url(presentation.path("low", segment: 4)))
            // The player keeps playing (asking again for its segment, a hit), so the short idle
            // timeout does not pause the session while the test waits on a loaded machine.
            #expect(try await SessionClient.eventually(timeout: .seconds(30)) {
                _ = try await client.get(segments[3])
                return store.reader(for: key).file?.cachedLength(from: 0) == UInt64(presentation.segmentSize)
            }, "the segment after the position is buffered again")
            #expect(try await client.status(session.id)["resumes"] as? Int ?? 0 >= 1)
        }
    }

    @Test("The session limit holds: active sessions past it get 429; an idle one makes room and is then closed (410)")
    func limitEvictsLeastRecentlyUsedIdle() async throws {
        try await ProxyHarness.run(configure: { $0.limits.maximumOpenSessions = 2 }) { harness in
            let presentation = TestPresentation.publish("l", on: harness.origin, segments: 2)
            let client = SessionClient(harness: harness)
            let media = harness.origin.url(presentation.mediaPath("low"))
            let pausing = try await client.open(#"{"url": "\#(media)", "idleTimeout": 0.3}"#)
            #expect(try await SessionClient.eventually(timeout: .seconds(30)) { try await client.status(pausing.id)["state"] as? String == "idle" })
            let playing = try await client.open(#"{"url": "\#(media)"}"#)
            // Two open, one idle: a new session takes the idle one's place.
            let third = try await client.open(#"{"url": "\#(media)"}"#)
            #expect(try await client.status(pausing.id)["state"] as? String == "closed", "the idle session made room")
            #expect(try await client.get(pausing.playlist).status == 410)
            for active in [playing, third] { #expect(try await client.get(active.playlist).status == 200) }
            // Two active sessions: the limit holds.
            #expect(try await client.send(.POST, "/sessions", body: #"{"url": "\#(media)"}"#).status == 429)
        }
    }
}
