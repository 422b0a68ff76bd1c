import CacheProxy
import Foundation
import Logging
import Testing
import TestSupport

/// A multivariant playlist served from the cache while the origin cannot be reached lists only
/// what plays from the cache: a player must not pick, or switch to, a variant whose requests all
/// fail. With the origin up, nothing is dropped.
@Suite("Offline multivariant playlists list what is cached", .timeLimit(.minutes(2)))
struct OfflineVariantsTests {
    /// Every cached multivariant copy is stale at once, so each request revalidates it: the
    /// revalidation is what tells the proxy whether the origin answers.
    static func configure(_ configuration: inout CacheProxyConfiguration) {
        configuration.playlistFreshness = .milliseconds(1)
    }

    /// Plays the multivariant playlist, then the first segment of the lowest variant and, when
    /// `audio`, of the audio rendition: what a player that started and stopped leaves cached.
    static func playLowest(_ harness: ProxyHarness, _ presentation: TestPresentation, audio: Bool) async throws {
        #expect(try await harness.get(presentation.masterPath).status == 200)
        var paths = [presentation.mediaPath("low"), presentation.path("low", segment: 0)]
        if audio { paths += [presentation.mediaPath("audio"), presentation.path("audio", segment: 0)] }
        for path in paths { #expect(try await harness.get(path).status == 200, "\(path)") }
    }

    static func lines(_ body: [UInt8], prefix: String) -> [String] {
        SessionClient.lines(body, prefix: prefix)
    }

    @Test("Origin stopped: only the variant (and rendition) that was played is listed, the I-frame variant dropped, logged once")
    func originStopped() async throws {
        let log = CapturedLog()
        try await ProxyHarness.run(configure: Self.configure, logger: log.logger(level: .notice)) { harness in
            let presentation = TestPresentation.publish("v", on: harness.origin, segments: 3, audio: true)
            try await Self.playLowest(harness, presentation, audio: true)
            await harness.origin.stop()
            // The first request revalidates the stale copy and is answered within 250 ms of it:
            // filtered already when the refused connection comes back in time, which a loaded
            // machine may not give; every request once the proxy knows is.
            func variants() async throws -> [String] {
                Self.lines(try await harness.get(presentation.masterPath).body, prefix: "#EXT-X-STREAM-INF")
            }
            #expect(try await SessionClient.eventually(timeout: .seconds(30)) { try await variants().count == 1 })
            for _ in 0..<2 {
                let master = try await harness.get(presentation.masterPath)
                #expect(master.status == 200)
                let variants = Self.lines(master.body, prefix: "#EXT-X-STREAM-INF")
                #expect(variants.count == 1 && variants.first?.contains("BANDWIDTH=800000") == true, "\(variants)")
                #expect(Self.lines(master.body, prefix: "#EXT-X-I-FRAME-STREAM-INF").isEmpty)
                #expect(Self.lines(master.body, prefix: "#EXT-X-MEDIA").count == 1, "the cached audio rendition stays")
                let uris = SessionClient.uris(in: master.body)
                #expect(uris.count == 2 && uris.allSatisfy { $0.contains("%2Fv%2Flow%2F") || $0.contains("%2Fv%2Faudio%2F") }, "\(uris)")
            }
            let notices = log.all.filter { $0.message.contains("lists only the variants that can play from the cache") }
            #expect(notices.count == 1, "logged once per playlist: \(notices.map(\.metadata))")
            #expect(notices.first?.metadata["variants"] == "1 of 3")
        }
    }

    @Test("Origin up: every variant is listed, whatever is cached")
    func originUp() async throws {
        try await ProxyHarness.run(configure: Self.configure) { harness in
            let presentation = TestPresentation.publish("u", on: harness.origin, segments: 3, audio: true)
            try await Self.playLowest(harness, presentation, audio: true)
            let master = try await harness.get(presentation.masterPath)
            #expect(master.status == 200)
            #expect(Self.lines(master.body, prefix: "#EXT-X-STREAM-INF").count == 3)
            #expect(Self.lines(master.body, prefix: "#EXT-X-I-FRAME-STREAM-INF").count == 1)
        }
    }

    @Test("Origin stopped, nothing playable (the variant's audio was never cached): the playlist is served unchanged")
    func nothingPlayable() async throws {
        try await ProxyHarness.run(configure: Self.configure) { harness in
            let presentation = TestPresentation.publish("n", on: harness.origin, segments: 3, audio: true)
            try await Self.playLowest(harness, presentation, audio: false)
            await harness.origin.stop()
            let master = try await harness.get(presentation.masterPath)
            #expect(master.status == 200)
            #expect(Self.lines(master.body, prefix: "#EXT-X-STREAM-INF").count == 3)
            #expect(Self.lines(master.body, prefix: "#EXT-X-MEDIA").count == 1)
        }
    }
}
