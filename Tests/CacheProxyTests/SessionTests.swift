import CacheProxy
import CacheProxyParsing
import Foundation
import Testing
import TestSupport

/// Playback sessions against a real loopback origin that logs every request: the policy of each
/// option, the buffer window following the player, and the session's life.
@Suite("Playback sessions", .timeLimit(.minutes(2)))
struct SessionTests {
    @Test("A locked session lists one variant and the renditions it references, and the origin sees only that variant")
    func lockedQuality() async throws {
        try await ProxyHarness.run { harness in
            let presentation = TestPresentation.publish("p", on: harness.origin, segments: 4, audio: true)
            let client = SessionClient(harness: harness)
            let session = try await client.open(#"{"url": "\#(harness.origin.url(presentation.masterPath))", "quality": "lowest"}"#)
            #expect(session.playlist == "\(client.base)/sessions/\(session.id)/index.m3u8")
            let quality = try #require(session.json["quality"] as? [String: Any])
            #expect(quality["bandwidth"] as? Int == 800_000 && quality["resolution"] as? String == "640x360")
            let master = try await client.get(session.playlist)
            #expect(master.status == 200)
            #expect(SessionClient.lines(master.body, prefix: "#EXT-X-STREAM-INF").count == 1)
            #expect(SessionClient.lines(master.body, prefix: "#EXT-X-I-FRAME-STREAM-INF").isEmpty)
            #expect(SessionClient.lines(master.body, prefix: "#EXT-X-MEDIA:").count == 1)
            let sessionPrefix = "\(client.base)/sessions/\(session.id)/proxy?url="
            let uris = SessionClient.uris(in: master.body)
            #expect(uris.count == 2 && uris.allSatisfy { $0.hasPrefix(sessionPrefix) })
            // Play everything the session lists.
            for media in uris {
                let playlist = try await client.get(media)
                let segments = SessionClient.uris(in: playlist.body)
                #expect(segments.count == 4 && segments.allSatisfy { $0.hasPrefix(sessionPrefix) })
                for segment in segments { #expect(try await client.get(segment).status == 200) }
            }
            let paths = harness.origin.requests.map(\.path)
            #expect(!paths.contains { $0.hasPrefix("/p/mid/") || $0.hasPrefix("/p/high/") })
            #expect((0..<4).allSatisfy { paths.contains(presentation.path("low", segment: $0)) && paths.contains(presentation.path("audio", segment: $0)) })
        }
    }

    @Test("Quality by height or bandwidth picks the closest variant", arguments: [
        (#""720p""#, 1_600_000), ("1500000", 1_600_000), (#""highest""#, 4_000_000), (#""2160p""#, 4_000_000), ("10000", 800_000),
    ])
    func qualityChoice(quality: String, bandwidth: Int) async throws {
        try await ProxyHarness.run { harness in
            let presentation = TestPresentation.publish("q", on: harness.origin, segments: 2)
            let client = SessionClient(harness: harness)
            let session = try await client.open(#"{"url": "\#(harness.origin.url(presentation.masterPath))", "quality": \#(quality)}"#)
            let master = try await client.get(session.playlist)
            let variants = SessionClient.lines(master.body, prefix: "#EXT-X-STREAM-INF")
            #expect(variants.count == 1 && variants.first?.contains("BANDWIDTH=\(bandwidth),") == true)
        }
    }

    @Test("maxBandwidth drops the variants above it and bandwidth is written on those served")
    func bandwidthPolicy() async throws {
        try await ProxyHarness.run { harness in
            let presentation = TestPresentation.publish("b", on: harness.origin, segments: 2)
            let client = SessionClient(harness: harness)
            let session = try await client.open(#"{"url": "\#(harness.origin.url(presentation.masterPath))", "maxBandwidth": 2000000, "bandwidth": 5000000}"#)
            let variants = SessionClient.lines(try await client.get(session.playlist).body, prefix: "#EXT-X-STREAM-INF")
            #expect(variants.count == 2)
            #expect(variants.allSatisfy { $0.contains("BANDWIDTH=5000000,AVERAGE-BANDWIDTH=5000000,") })
            #expect(variants.contains { $0.contains("RESOLUTION=640x360") } && variants.contains { $0.contains("RESOLUTION=1280x720") })
            let low = try await client.open(#"{"url": "\#(harness.origin.url(presentation.masterPath))", "maxBandwidth": 10}"#)
            #expect(SessionClient.lines(try await client.get(low.playlist).body, prefix: "#EXT-X-STREAM-INF").count == 1, "the lowest stays")
        }
    }

    @Test("bufferAhead keeps exactly the window after the player's position fetched, and moves with a seek")
    func bufferWindow() async throws {
        try await ProxyHarness.run { harness in
            let presentation = TestPresentation.publish("w", on: harness.origin, segments: 12, audio: true)
            let client = SessionClient(harness: harness)
            let session = try await client.open(
                #"{"url": "\#(harness.origin.url(presentation.masterPath))", "quality": "lowest", "bufferAhead": {"segments": 2}}"#)
            func fetched(_ name: String) -> Set<Int> {
                Set((0..<12).filter { index in harness.origin.requests.contains { $0.path == presentation.path(name, segment: index) } })
            }
            // Before the player asks for a segment, the window starts at the beginning.
            #expect(await SessionClient.eventually { fetched("low") == [0, 1] && fetched("audio") == [0, 1] })
            let status = try await client.status(session.id)
            #expect(status["bufferedSegments"] as? Int == 2 && status["bufferedAheadSeconds"] as? Double == 8)
            #expect(status["position"] is NSNull)
            // The player seeks to segment 6: the window becomes 7 and 8 (and the audio beside them).
            let segment6 = "\(client.base)/sessions/\(session.id)/proxy?url=" + percentEncoded(harness.origin.url(presentation.path("low", segment: 6)))
            #expect(try await client.get(segment6).body == presentation.segmentBytes(variant: 0, segment: 6))
            #expect(await SessionClient.eventually { fetched("low") == [0, 1, 6, 7, 8] && fetched("audio") == [0, 1, 7, 8] })
            let position = try #require(try await client.status(session.id)["position"] as? [String: Any])
            #expect(position["segment"] as? Int == 6 && position["seconds"] as? Double == 24)
            #expect(try await SessionClient.eventually { (try await client.status(session.id)["bufferedSegments"] as? Int) == 2 })
            #expect(fetched("low") == [0, 1, 6, 7, 8] && fetched("mid").isEmpty && fetched("high").isEmpty, "nothing past the window")
        }
    }

    @Test("A seek cancels an unfinished fetch that left the window")
    func seekCancelsFetches() async throws {
        try await ProxyHarness.run { harness in
            let slow = TestOrigin.Faults(chunkDelay: .milliseconds(50), chunkSize: 20_000)
            let presentation = TestPresentation.publish("c", on: harness.origin, segments: 10, segmentSize: 2_000_000, faults: slow)
            let client = SessionClient(harness: harness)
            let media = harness.origin.url(presentation.mediaPath("low"))
            let session = try await client.open(#"{"url": "\#(media)", "bufferAhead": {"segments": 1}}"#)
            let store = harness.store
            let key0 = store.key(for: harness.origin.url(presentation.path("low", segment: 0)))
            #expect(await SessionClient.eventually { (store.reader(for: key0).file?.cachedLength(from: 0) ?? 0) > 0 })
            // Seek to 8 through a range request, as a player does after reading the playlist.
            let segment8 = "\(client.base)/sessions/\(session.id)/proxy?url=" + percentEncoded(harness.origin.url(presentation.path("low", segment: 8)))
            #expect(try await client.get(segment8, headers: [("Range", "bytes=0-99")]).status == 206)
            // Segment 0's fetch stops far from its end; segment 9 is fetched instead.
            #expect(await SessionClient.eventually { harness.origin.requests.contains { $0.path == presentation.path("low", segment: 9) } })
            // The origin saw the fetch of segment 0 go away far from its end, and it was not asked again.
            let origin = harness.origin, path0 = presentation.path("low", segment: 0)
            #expect(await SessionClient.eventually { !origin.outcomes(for: path0).isEmpty }, "the origin finished segment 0's fetch")
            #expect(origin.outcomes(for: path0) == [.abandoned] && origin.requests(for: path0).count == 1)
            #expect((store.reader(for: key0).file?.cachedLength(from: 0) ?? 0) < 1_000_000, "the cancelled fetch stopped far from its end")
        }
    }

    @Test("The first media playlist answer waits for the start buffer, bounded by startTimeout")
    func startBuffer() async throws {
        try await ProxyHarness.run { harness in
            let slow = TestOrigin.Faults(chunkDelay: .milliseconds(30), chunkSize: 5_000)
            let presentation = TestPresentation.publish("s", on: harness.origin, segments: 6, faults: slow)
            let client = SessionClient(harness: harness)
            let store = harness.store
            func cached(_ segment: Int) -> Bool {
                let key = store.key(for: harness.origin.url(presentation.path("low", segment: segment)))
                return store.reader(for: key).file.map { $0.cachedLength(from: 0) >= UInt64(presentation.segmentSize) } ?? false
            }
            let session = try await client.open(#"{"url": "\#(harness.origin.url(presentation.mediaPath("low")))", "startBuffer": {"segments": 2}}"#)
            let first = try await client.get(session.playlist)
            #expect(first.status == 200 && cached(0) && cached(1), "answered once two segments were cached")
            // A start buffer the origin cannot fill in time: the answer comes at the timeout.
            let crawling = TestOrigin.Faults(chunkDelay: .seconds(5), chunkSize: 1_000)
            let other = TestPresentation.publish("t", on: harness.origin, segments: 6, faults: crawling)
            let bounded = try await client.open(
                #"{"url": "\#(harness.origin.url(other.mediaPath("low")))", "startBuffer": {"seconds": 8}, "startTimeout": 0.4}"#)
            let started = ContinuousClock.now
            #expect(try await client.get(bounded.playlist).status == 200)
            let waited = ContinuousClock.now - started
            #expect(waited >= .milliseconds(350) && waited < .seconds(4))
        }
    }

    @Test("hideUntilBuffered serves a growing EVENT playlist of cached segments, then the VOD playlist")
    func hideUntilBuffered() async throws {
        try await ProxyHarness.run { harness in
            let presentation = TestPresentation.publish("h", on: harness.origin, segments: 5)
            let client = SessionClient(harness: harness)
            let gate = TestGate()
            for segment in 2..<5 {
                let path = presentation.path("low", segment: segment)
                let bytes = presentation.segmentBytes(variant: 0, segment: segment)
                harness.origin.setResponder(path) { _ in
                    await gate.wait()
                    return .init(bytes, contentType: "video/mp2t")
                }
            }
            let session = try await client.open(#"{"url": "\#(harness.origin.url(presentation.mediaPath("low")))", "hideUntilBuffered": true}"#)
            // Segments 0 and 1 arrive; 2 waits at the origin.
            #expect(try await SessionClient.eventually { (try await client.status(session.id)["bufferedSegments"] as? Int) == 2 })
            let growing = try await client.get(session.playlist)
            let text = String(decoding: growing.body, as: UTF8.self)
            #expect(text.contains("#EXT-X-PLAYLIST-TYPE:EVENT") && text.contains("#EXT-X-START:TIME-OFFSET=0") && !text.contains("#EXT-X-ENDLIST"))
            #expect(SessionClient.uris(in: growing.body).count == 2)
            gate.open()
            // The player plays what it sees; the buffer follows, and the playlist grows to the end.
            var listed = 0
            for _ in 0..<50 {
                let playlist = try await client.get(session.playlist)
                let segments = SessionClient.uris(in: playlist.body)
                for segment in segments.dropFirst(listed) { #expect(try await client.get(segment).status == 200) }
                listed = segments.count
                if String(decoding: playlist.body, as: UTF8.self).contains("#EXT-X-ENDLIST") { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            let final = String(decoding: try await client.get(session.playlist).body, as: UTF8.self)
            #expect(final.contains("#EXT-X-PLAYLIST-TYPE:VOD") && final.contains("#EXT-X-ENDLIST") && listed == 5)
        }
    }

    @Test("A session's buffering shares the segment lane with players and never delays the express lane")
    func bufferingOnTheSegmentLane() async throws {
        try await ProxyHarness.run(configure: { $0.segmentConcurrency = 1 }) { harness in
            // Each segment takes the origin about 5 s.
            let slow = TestOrigin.Faults(chunkDelay: .milliseconds(500), chunkSize: 2_000)
            let presentation = TestPresentation.publish("x", on: harness.origin, segments: 6, faults: slow)
            let client = SessionClient(harness: harness)
            let session = try await client.open(#"{"url": "\#(harness.origin.url(presentation.mediaPath("low")))", "bufferAhead": {"segments": 4}}"#)
            #expect(await SessionClient.eventually {
                guard let lane = harness.proxy.status?.segment else { return false }
                return lane.active == 1 && lane.waiting == 1
            }, "the session's two fetches hold the one segment place and wait for it")
            let started = ContinuousClock.now
            #expect(try await client.get(session.playlist).status == 200)
            #expect(try await harness.get(presentation.mediaPath("mid")).status == 200)
            #expect(ContinuousClock.now - started < .seconds(3), "playlists went by the express lane")
            #expect(harness.proxy.status?.segment.active == 1, "the session never took more than the lane's places")
        }
    }

    @Test("headSegments routes the first segments through the session and leaves the rest on the origin")
    func headSegments() async throws {
        try await ProxyHarness.run { harness in
            let presentation = TestPresentation.publish("e", on: harness.origin, segments: 5)
            let client = SessionClient(harness: harness)
            let session = try await client.open(#"{"url": "\#(harness.origin.url(presentation.mediaPath("low")))", "headSegments": 2}"#)
            let uris = SessionClient.uris(in: try await client.get(session.playlist).body)
            #expect(uris.count == 5)
            #expect(uris.prefix(2).allSatisfy { $0.hasPrefix("\(client.base)/sessions/\(session.id)/proxy?url=") })
            #expect(Array(uris.dropFirst(2)) == (2..<5).map { harness.origin.url(presentation.path("low", segment: $0)) })
        }
    }
}
