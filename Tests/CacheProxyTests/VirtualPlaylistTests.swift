import Foundation
import Testing
import TestSupport

/// Virtual playlists: several presentations played one after another as one media playlist.
@Suite("Virtual playlists", .timeLimit(.minutes(2)))
struct VirtualPlaylistTests {
    @Test("Three presentations join into one media playlist whose segments play through the session")
    func joined() async throws {
        try await ProxyHarness.run { harness in
            let first = TestPresentation.publish("v1", on: harness.origin, segments: 3)
            let second = TestPresentation.publish("v2", on: harness.origin, segments: 2, duration: 6)
            let third = TestPresentation.publish("v3", on: harness.origin, segments: 4)
            let client = SessionClient(harness: harness)
            let urls = [first.masterPath, second.mediaPath("high"), third.masterPath].map { "\"\(harness.origin.url($0))\"" }
            let session = try await client.open(#"{"urls": [\#(urls.joined(separator: ", "))], "quality": "lowest"}"#)
            let playlist = try await client.get(session.playlist)
            let text = String(decoding: playlist.body, as: UTF8.self)
            #expect(text.contains("#EXT-X-ENDLIST") && text.contains("#EXT-X-TARGETDURATION:6"))
            #expect(SessionClient.lines(playlist.body, prefix: "#EXT-X-DISCONTINUITY").count == 2)
            let segments = SessionClient.uris(in: playlist.body)
            #expect(segments.count == 9)
            var expected: [[UInt8]] = (0..<3).map { first.segmentBytes(variant: 0, segment: $0) }
            expected += (0..<2).map { second.segmentBytes(variant: 2, segment: $0) }
            expected += (0..<4).map { third.segmentBytes(variant: 0, segment: $0) }
            for (segment, bytes) in zip(segments, expected) { #expect(try await client.get(segment).body == bytes) }
            let status = try await client.status(session.id)
            let position = try #require(status["position"] as? [String: Any])
            let seconds: Double = 3 * 4 + 2 * 6 + 3 * 4
            #expect(position["segment"] as? Int == 8 && position["seconds"] as? Double == seconds)
        }
    }

    @Test("Presentations that cannot be joined are refused, naming which", arguments: ["live", "iframes", "multivariant"])
    func refused(kind: String) async throws {
        try await ProxyHarness.run { harness in
            let good = TestPresentation.publish("g", on: harness.origin, segments: 2)
            let type = TestPresentation.playlistType
            harness.origin.set("/live.m3u8", .init(Array("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\na.ts\n".utf8), contentType: type))
            harness.origin.set("/iframes.m3u8", .init(Array("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-I-FRAMES-ONLY\n#EXT-X-BYTERANGE:100@0\n#EXTINF:4,\na.ts\n#EXT-X-ENDLIST\n".utf8), contentType: type))
            let second = switch kind {
            case "live": harness.origin.url("/live.m3u8")
            case "iframes": harness.origin.url("/iframes.m3u8")
            default: harness.origin.url(good.masterPath)
            }
            let response = try await SessionClient(harness: harness).send(
                .POST, "/sessions", body: #"{"urls": ["\#(harness.origin.url(good.mediaPath("low")))", "\#(second)"]}"#)
            #expect(response.status == 400)
            let json = try #require(SessionClient.object(response.body))
            #expect(json["field"] as? String == (kind == "multivariant" ? #""quality""# : #""urls[1]""#))
        }
    }

    @Test("A part whose chosen variant plays its audio from a separate rendition is refused, naming which")
    func separateAudioRenditionRefused() async throws {
        try await ProxyHarness.run { harness in
            let muxed = TestPresentation.publish("mx", on: harness.origin, segments: 2)
            let separate = TestPresentation.publish("sa", on: harness.origin, segments: 2, audio: true)
            let client = SessionClient(harness: harness)
            let urls = [muxed.mediaPath("low"), separate.masterPath].map { "\"\(harness.origin.url($0))\"" }
            let response = try await client.send(.POST, "/sessions", body: #"{"urls": [\#(urls.joined(separator: ", "))], "quality": "lowest"}"#)
            #expect(response.status == 400)
            let json = try #require(SessionClient.object(response.body))
            #expect(json["field"] as? String == #""urls[1]""#)
            #expect((json["error"] as? String)?.contains("separate rendition") == true, "\(json)")
            // The same presentation without its audio rendition joins.
            let plain = TestPresentation.publish("pl", on: harness.origin, segments: 2)
            let joined = [muxed.mediaPath("low"), plain.masterPath].map { "\"\(harness.origin.url($0))\"" }
            #expect(try await client.send(.POST, "/sessions", body: #"{"urls": [\#(joined.joined(separator: ", "))], "quality": "lowest"}"#).status == 201)
        }
    }
}
