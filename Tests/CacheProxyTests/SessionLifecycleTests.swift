import CacheProxy
import CacheProxyParsing
import Foundation
import Testing
import TestSupport

/// A session's life: opened by an app over HTTP or from Swift, reported, closed by DELETE (idle
/// sessions: SessionIdleTests), refused with a reason when its request is wrong.
@Suite("Playback session lifecycle", .timeLimit(.minutes(2)))
struct SessionLifecycleTests {
    @Test("A session reports its position, buffer and traffic, in /sessions and /status too")
    func status() async throws {
        try await ProxyHarness.run { harness in
            let presentation = TestPresentation.publish("r", on: harness.origin, segments: 4)
            let client = SessionClient(harness: harness)
            let session = try await client.open(#"{"url": "\#(harness.origin.url(presentation.mediaPath("mid")))"}"#)
            #expect(session.json["state"] as? String == "active")
            for key in ["quality", "position", "latencyMs"] { #expect(session.json[key] is NSNull, "\(key) is null, not absent") }
            let uris = SessionClient.uris(in: try await client.get(session.playlist).body)
            #expect(try await client.get(uris[1]).body == presentation.segmentBytes(variant: 1, segment: 1))
            let status = try await client.status(session.id)
            let position = try #require(status["position"] as? [String: Any])
            #expect(position["segment"] as? Int == 1 && position["seconds"] as? Double == 4)
            #expect((status["bytesServed"] as? Int ?? 0) >= presentation.segmentSize)
            #expect((status["bytesFromOrigin"] as? Int ?? 0) >= presentation.segmentSize)
            #expect(status["latencyMs"] is Double && status["activeRequests"] as? Int == 0)
            let all = try #require(try JSONSerialization.jsonObject(with: Data(try await client.send(.GET, "/sessions").body)) as? [[String: Any]])
            #expect(all.map { $0["id"] as? String } == [session.id])
            let proxyStatus = try #require(SessionClient.object(try await client.send(.GET, "/status").body))
            #expect((proxyStatus["sessions"] as? [[String: Any]])?.first?["id"] as? String == session.id)
            #expect(try await client.send(.GET, "/debug/status").status == 200)
        }
    }

    @Test("DELETE closes a session and stops its fetches; unknown IDs get 404, a closed session's media 410")
    func deleteAndUnknown() async throws {
        try await ProxyHarness.run { harness in
            let slow = TestOrigin.Faults(chunkDelay: .milliseconds(100), chunkSize: 2_000)
            let presentation = TestPresentation.publish("d", on: harness.origin, segments: 6, faults: slow)
            let client = SessionClient(harness: harness)
            let session = try await client.open(#"{"url": "\#(harness.origin.url(presentation.mediaPath("low")))", "bufferAhead": {"segments": 6}}"#)
            #expect(await SessionClient.eventually { harness.origin.requests.contains { $0.path.hasPrefix("/d/low/s") } })
            let closed = try await client.send(.DELETE, "/sessions/\(session.id)")
            #expect(closed.status == 200 && SessionClient.object(closed.body)?["state"] as? String == "closed")
            #expect(try await client.status(session.id)["state"] as? String == "closed")
            // Its fetches stopped: the origin saw each one go away before its end (a segment
            // takes it about a second), and nothing is left on the lane to start another.
            let outcomes = try await SessionClient.originSettled(harness, prefix: "/d/low/s")
            #expect(!outcomes.isEmpty && outcomes.allSatisfy { $0 == .abandoned }, "\(outcomes)")
            let store = harness.store
            let lengths = (0..<6).map { store.reader(for: store.key(for: harness.origin.url(presentation.path("low", segment: $0)))).file?.cachedLength(from: 0) ?? 0 }
            #expect(lengths.allSatisfy { $0 < UInt64(presentation.segmentSize) })
            #expect(try await client.send(.DELETE, "/sessions/\(session.id)").status == 404)
            #expect(try await client.send(.GET, "/sessions/0123456789abcdef").status == 404)
            #expect(try await client.get(session.playlist).status == 410)
            #expect(try await client.send(.GET, "/sessions/nope/index.m3u8").status == 404)
        }
    }

    @Test("Bad bodies get 400 with a one-line JSON error naming the field; large ones 413", arguments: [
        (#"{}"#, #""url""#), (#"{"url": "ftp://x/y"}"#, #""url""#), (#"{"url": "http://x/a.m3u8", "urls": ["http://x/b.m3u8"]}"#, #""urls""#),
        (#"{"url": "http://x/a.m3u8", "quality": "fast"}"#, #""quality""#), (#"{"url": "http://x/a.m3u8", "quality": -3}"#, #""quality""#),
        (#"{"url": "http://x/a.m3u8", "bufferAhead": {"seconds": 1, "segments": 2}}"#, #""bufferAhead""#),
        (#"{"url": "http://x/a.m3u8", "bufferAhead": {"minutes": 1}}"#, #""bufferAhead.minutes""#),
        (#"{"url": "http://x/a.m3u8", "startBuffer": {"segments": 0}}"#, #""startBuffer.segments""#),
        (#"{"url": "http://x/a.m3u8", "idleTimeout": "long"}"#, #""idleTimeout""#), (#"{"url": "http://x/a.m3u8", "hideUntilBufferd": true}"#, #""hideUntilBufferd""#),
        (#"{"url": "http://x/a.m3u8", "headSegments": 0}"#, #""headSegments""#), (#"{"urls": []}"#, #""urls""#),
        (#"{"urls": ["http://x/a.m3u8", 3]}"#, #""urls[1]""#), (#"{"url": "http://x/a.m3u8", "maxBandwidth": 0.5}"#, #""maxBandwidth""#),
    ])
    func badBodies(body: String, field: String) async throws {
        try await ProxyHarness.run { harness in
            let response = try await SessionClient(harness: harness).send(.POST, "/sessions", body: body)
            #expect(response.status == 400)
            let json = try #require(SessionClient.object(response.body))
            #expect(json["field"] as? String == field)
            let message = try #require(json["error"] as? String)
            #expect(!message.isEmpty && !message.contains("\n") && !message.contains("CodingKeys"))
        }
    }

    @Test("A body over 64 KiB gets 413, JSON that is not an object 400")
    func largeAndBrokenBodies() async throws {
        try await ProxyHarness.run { harness in
            let client = SessionClient(harness: harness)
            let large = #"{"url": "http://x/a.m3u8", "padding": ""# + String(repeating: "a", count: 70_000) + #""}"#
            let statuses = [
                try await client.send(.POST, "/sessions", body: large).status, try await client.send(.POST, "/sessions", body: "[1, 2").status,
                try await client.send(.PUT, "/sessions").status,
            ]
            #expect(statuses == [413, 400, 405])
        }
    }

    @Test("GET /sessions lists the open sessions, then the last 64 closed ones, oldest first")
    func closedSessionsKept() async throws {
        try await ProxyHarness.run { harness in
            let presentation = TestPresentation.publish("k", on: harness.origin, segments: 1)
            let client = SessionClient(harness: harness)
            let body = #"{"url": "\#(harness.origin.url(presentation.mediaPath("low")))"}"#
            var closed: [String] = []
            for _ in 0..<66 {
                let session = try await client.open(body)
                #expect(try await client.send(.DELETE, "/sessions/\(session.id)").status == 200)
                closed.append(session.id)
            }
            let open = try await client.open(body)
            let listed = try #require(try JSONSerialization.jsonObject(with: Data(try await client.send(.GET, "/sessions").body)) as? [[String: Any]])
            #expect(listed.count == 65)
            #expect(listed.first?["id"] as? String == open.id && listed.first?["state"] as? String == "active")
            #expect(listed.dropFirst().map { $0["id"] as? String } == closed.suffix(64).map { $0 }, "the last 64 closed, oldest first")
            #expect(listed.dropFirst().allSatisfy { $0["state"] as? String == "closed" })
            // The two closed first are forgotten; the third is still known.
            #expect(try await client.send(.GET, "/sessions/\(closed[0])").status == 404)
            #expect(try await client.send(.GET, "/sessions/\(closed[2])").status == 200)
        }
    }

    @Test("Past the limit of open sessions a new one gets 429 until one closes")
    func sessionLimit() async throws {
        try await ProxyHarness.run(configure: { $0.limits.maximumOpenSessions = 2 }) { harness in
            let presentation = TestPresentation.publish("m", on: harness.origin, segments: 1)
            let client = SessionClient(harness: harness)
            let body = #"{"url": "\#(harness.origin.url(presentation.mediaPath("low")))"}"#
            let first = try await client.open(body)
            _ = try await client.open(body)
            let refused = try await client.send(.POST, "/sessions", body: body)
            #expect(refused.status == 429)
            #expect(try await client.send(.DELETE, "/sessions/\(first.id)").status == 200)
            #expect(try await client.send(.POST, "/sessions", body: body).status == 201)
        }
    }

    @Test("Opening a session over a presentation that cannot be played as asked is refused with the reason")
    func refusedPresentations() async throws {
        try await ProxyHarness.run { harness in
            harness.origin.set("/video.mp4", .init([0, 1, 2], contentType: "video/mp4"))
            let client = SessionClient(harness: harness)
            let notPlaylist = try await client.send(.POST, "/sessions", body: #"{"url": "\#(harness.origin.url("/video.mp4"))"}"#)
            #expect(notPlaylist.status == 400 && SessionClient.object(notPlaylist.body)?["field"] as? String == #""url""#)
            let missing = try await client.send(.POST, "/sessions", body: #"{"url": "\#(harness.origin.url("/none.m3u8"))"}"#)
            #expect(missing.status == 404)
        }
    }

    @Test("From Swift: openSession returns the player's URL, a live status, and closes")
    func library() async throws {
        try await ProxyHarness.run { harness in
            let presentation = TestPresentation.publish("l", on: harness.origin, segments: 3)
            var request = PlaybackSessionRequest(url: try OriginURL(parsing: harness.origin.url(presentation.masterPath)))
            request.quality = .height(720)
            let session = try await harness.proxy.openSession(request)
            #expect(session.playlistURL == "http://127.0.0.1:\(harness.port)/sessions/\(session.id)/index.m3u8")
            #expect(session.status.quality?.resolution == "1280x720" && session.status.state == .active)
            #expect(try await harness.fetch(session.playlistURL).status == 200)
            session.close()
            #expect(session.status.state == .closed)
            #expect(try await harness.fetch(session.playlistURL).status == 410)
        }
    }

    @Test("A session over a fully cached presentation plays with the origin down")
    func offline() async throws {
        try await ProxyHarness.run { harness in
            let presentation = TestPresentation.publish("o", on: harness.origin, segments: 3)
            let client = SessionClient(harness: harness)
            let body = #"{"url": "\#(harness.origin.url(presentation.masterPath))", "quality": "lowest"}"#
            let online = try await client.open(body)
            let media = SessionClient.uris(in: try await client.get(online.playlist).body)[0]
            for segment in SessionClient.uris(in: try await client.get(media).body) { _ = try await client.get(segment) }
            await harness.origin.stop()
            let offline = try await client.open(body)
            let variant = SessionClient.uris(in: try await client.get(offline.playlist).body)
            #expect(variant.count == 1)
            let segments = SessionClient.uris(in: try await client.get(variant[0]).body)
            #expect(segments.count == 3)
            for (index, segment) in segments.enumerated() {
                #expect(try await client.get(segment).body == presentation.segmentBytes(variant: 0, segment: index))
            }
        }
    }
}
