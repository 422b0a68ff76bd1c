import CacheProxy
import DASH
import Foundation
import Testing
import TestSupport

/// Playback sessions of DASH presentations: `POST /sessions` with an MPD URL, the MPD served at
/// the session's path form with its quality lock and maximum bandwidth, every request routed
/// through the session.
@Suite("Playback sessions of DASH presentations", .timeLimit(.minutes(2)))
struct DASHSessionTests {
    /// Session fields, the Representations the served MPD keeps (one id per Period), and the
    /// quality the session reports.
    static let policies: [(fields: String, kept: [String], bandwidth: Int?)] = [
        (#""quality": "720p""#, ["high", "high"], 900_000),
        (#""quality": "lowest""#, ["low", "low"], 300_000),
        (#""quality": "highest", "maxBandwidth": 500000"#, ["low", "low"], 300_000),
        (#""maxBandwidth": 500000"#, ["low", "low"], nil),
        (#""quality": 850000"#, ["high", "high"], 900_000),
    ]

    @Test("The MPD at the session's path form keeps the Representations its quality lock and maximumBandwidth allow, and plays through the session, offline too",
          arguments: policies.indices)
    func lockAndMaximumBandwidth(index: Int) async throws {
        let (fields, kept, bandwidth) = Self.policies[index]
        try await ProxyHarness.run { harness in
            let mpd = DASHTestPresentation.serveLadder(on: harness.origin)
            let client = SessionClient(harness: harness)
            let opened = try await client.open(#"{"url": "\#(harness.origin.url(mpd))", \#(fields)}"#)
            let sessionPrefix = "http://127.0.0.1:\(harness.port)/sessions/\(opened.id)/dash/"
            #expect(opened.playlist == (try DASHProxyTests.dashURL(harness, mpd)).replacingOccurrences(of: "/dash/", with: "/sessions/\(opened.id)/dash/"))
            let quality = opened.json["quality"] as? [String: Any]
            #expect(quality?["bandwidth"] as? Int == bandwidth, "\(fields)")
            let player = DASHTestPlayer(harness: harness, pathFormPrefix: sessionPrefix)
            let play = try await player.play(opened.playlist)
            let manifest = try DASHManifest(parsing: play.manifest)
            #expect(manifest.representations.map(\.id) == kept, "\(fields)")
            for fetched in play.fetched {
                let path = try DASHDownloadTests.originPath(harness, fetched.url.replacingOccurrences(of: "/sessions/\(opened.id)", with: ""))
                #expect(fetched.body == DASHTestPresentation.ladderBytes(path), "\(path)")
            }
            #expect(Set(harness.origin.requests.map(\.path)).isSuperset(of: DASHTestPresentation.ladderPaths("/l/", representation: kept[0])))
            let status = try await client.status(opened.id)
            #expect((status["bytesServed"] as? Int ?? 0) >= 6 * DASHTestPresentation.segmentBytes, "the session counted its player's bytes")
            #expect((status["bytesFromOrigin"] as? Int ?? 0) > 0)
            await harness.origin.stop()
            let offline = try await player.play(opened.playlist)
            #expect(offline.fetched.map(\.body) == play.fetched.map(\.body))
        }
    }

    @Test("Buffer policies a DASH session does not have yet are refused, naming the field", arguments: [
        (#""bufferAhead": {"segments": 3}"#, "bufferAhead"), (#""startBuffer": {"seconds": 4}"#, "startBuffer"),
        (#""hideUntilBuffered": true"#, "hideUntilBuffered"), (#""headSegments": 2"#, "headSegments"),
        (#""bandwidth": 1000000"#, "bandwidth"),
    ])
    func refusedPolicies(fields: String, field: String) async throws {
        try await ProxyHarness.run { harness in
            let mpd = DASHTestPresentation.serveLadder(on: harness.origin)
            let response = try await SessionClient(harness: harness).send(.POST, "/sessions", body: #"{"url": "\#(harness.origin.url(mpd))", \#(fields)}"#)
            #expect(response.status == 400)
            #expect(SessionClient.object(response.body)?["field"] as? String == "\"\(field)\"", "\(String(decoding: response.body, as: UTF8.self))")
        }
    }

    @Test("A DASH session's index.m3u8 is a 404 naming its MPD; a virtual playlist refuses an MPD")
    func notAnHLSSession() async throws {
        try await ProxyHarness.run { harness in
            let mpd = DASHTestPresentation.serveLadder(on: harness.origin)
            let client = SessionClient(harness: harness)
            let opened = try await client.open(#"{"url": "\#(harness.origin.url(mpd))"}"#)
            let index = try await client.send(.GET, "/sessions/\(opened.id)/index.m3u8")
            #expect(index.status == 404)
            #expect(String(decoding: index.body, as: UTF8.self).contains(opened.playlist))
            let virtual = try await client.send(.POST, "/sessions", body: #"{"urls": ["\#(harness.origin.url(mpd))", "\#(harness.origin.url(mpd))"]}"#)
            #expect(virtual.status == 400)
            #expect(SessionClient.object(virtual.body)?["field"] as? String == "\"urls[0]\"")
        }
    }

    @Test("An MPD served as application/dash+xml under another name opens a DASH session")
    func foundByContentType() async throws {
        try await ProxyHarness.run { harness in
            DASHTestPresentation.serveLadder(on: harness.origin)
            harness.origin.set("/l/manifest", .init(DASHTestPresentation.ladderMPD, contentType: DASHTestPresentation.mpdType))
            let client = SessionClient(harness: harness)
            let opened = try await client.open(#"{"url": "\#(harness.origin.url("/l/manifest"))", "quality": "lowest"}"#)
            let served = try await client.get(opened.playlist)
            #expect(served.status == 200)
            #expect(try DASHManifest(parsing: served.body).representations.map(\.id) == ["low", "low"])
        }
    }
}
