import CacheProxy
import CacheStore
import Foundation
import SparseFile
import Testing
import TestSupport

/// What prefetching chooses to warm, and when it holds back.
@Suite("Prefetching: variants, live playlists, MP4 budgets, the breaker", .timeLimit(.minutes(2)))
struct PrefetchChoiceTests {
    static let playlist = "application/vnd.apple.mpegurl"

    /// A VOD media playlist of two 2-second TS segments at `/DIR/index.m3u8`.
    static func publishMedia(_ directory: String, on origin: TestOrigin, live: Bool = false) {
        origin.set("/\(directory)/index.m3u8", .init(PlaylistTests.media(["s0.ts", "s1.ts"], endList: !live), contentType: playlist))
        for index in 0..<2 {
            origin.set("/\(directory)/s\(index).ts", .init(TestBytes(seed: UInt64(index)).bytes(0, 10_000)))
        }
    }

    @Test("A bandwidth picks the closest variant, with its default audio and its subtitles")
    func closestVariantWithRenditions() async throws {
        try await ProxyHarness.run { harness in
            harness.origin.set("/m/master.m3u8", .init(Array("""
                #EXTM3U
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="lo",NAME="en",DEFAULT=YES,URI="lo-en/index.m3u8"
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="hi",NAME="en",DEFAULT=NO,URI="hi-en/index.m3u8"
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="hi",NAME="fr",DEFAULT=YES,URI="hi-fr/index.m3u8"
                #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="en",DEFAULT=YES,URI="subs-en/index.m3u8"
                #EXT-X-STREAM-INF:BANDWIDTH=500000,AUDIO="lo"
                v500/index.m3u8
                #EXT-X-STREAM-INF:BANDWIDTH=1500000,AUDIO="hi",SUBTITLES="subs"
                v1500/index.m3u8
                #EXT-X-STREAM-INF:BANDWIDTH=4000000,AUDIO="hi"
                v4000/index.m3u8

                """.utf8), contentType: Self.playlist))
            for directory in ["lo-en", "hi-en", "hi-fr", "subs-en", "v500", "v1500", "v4000"] {
                Self.publishMedia("m/" + directory, on: harness.origin)
            }
            // 1.3 Mbit/s: neither the lowest nor the highest variant is the closest.
            let url = harness.origin.url("/m/master.m3u8")
            _ = try await PrefetchTests.post(harness, #"{"urls": ["\#(url)"], "segments": 1, "variant": 1300000}"#)
            let status = try await PrefetchTests.settle(harness)
            #expect(status.jobs.map(\.state) == [.done], "\(status.jobs.map(\.detail))")
            #expect(Set(harness.origin.requests.map(\.path)) == [
                "/m/master.m3u8", "/m/v1500/index.m3u8", "/m/v1500/s0.ts", "/m/hi-fr/index.m3u8", "/m/hi-fr/s0.ts",
                "/m/subs-en/index.m3u8", "/m/subs-en/s0.ts",
            ])
        }
    }

    @Test("A live media playlist is fetched, its segments are not")
    func liveSegmentsSkipped() async throws {
        try await ProxyHarness.run { harness in
            Self.publishMedia("live", on: harness.origin, live: true)
            _ = try await PrefetchTests.post(harness, #"{"urls": ["\#(harness.origin.url("/live/index.m3u8"))"], "seconds": 10}"#)
            let status = try await PrefetchTests.settle(harness)
            let job = try #require(status.jobs.first)
            #expect(job.state == .done)
            #expect(job.detail?.contains("live") == true)
            #expect(harness.origin.requests.map(\.path) == ["/live/index.m3u8"])
        }
    }

    @Test("An MP4's seconds become bytes through its average bitrate (length over the mvhd duration)")
    func mp4SecondsToBytes() async throws {
        try await ProxyHarness.run { harness in
            let file = MP4Fixture.make(mediaBytes: 2_000_000, seconds: 20)
            let length = UInt64(file.bytes.count)
            harness.origin.set("/e.mp4", .init(file.bytes, contentType: "video/mp4"))
            _ = try await PrefetchTests.post(harness, #"{"urls": ["\#(harness.origin.url("/e.mp4"))"], "seconds": 5}"#)
            let status = try await PrefetchTests.settle(harness)
            #expect(status.jobs.first?.state == .done)
            let cached = harness.store.reader(for: harness.store.key(for: harness.origin.url("/e.mp4"))).file?.cachedRanges
            // 5 of 20 seconds: 5 × length / 20 bytes (rounded up), and the moov at the end.
            let head = UInt64((5 * (Double(length) / 20)).rounded(.up))
            #expect(cached == [ByteRange(offset: 0, length: head), ByteRange(from: file.moovOffset, to: length)].compactMap { $0 })
        }
    }

    @Test("An MP4 without a duration is read at 1.6 Mbit/s: 5 seconds are 1,000,000 bytes")
    func mp4WithoutDuration() async throws {
        try await ProxyHarness.run { harness in
            // ftyp, then an mdat that runs to the end of the file: no moov, no duration.
            func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
                withUnsafeBytes(of: UInt32(8 + payload.count).bigEndian, Array.init) + Array(type.utf8) + payload
            }
            let bytes = box("ftyp", Array("isom".utf8) + [0, 0, 2, 0]) + box("mdat", TestBytes(seed: 12).bytes(0, 3_000_000))
            harness.origin.set("/n.mp4", .init(bytes, contentType: "video/mp4"))
            _ = try await PrefetchTests.post(harness, #"{"urls": ["\#(harness.origin.url("/n.mp4"))"], "seconds": 5}"#)
            let status = try await PrefetchTests.settle(harness)
            #expect(status.jobs.first?.state == .done)
            let cached = harness.store.reader(for: harness.store.key(for: harness.origin.url("/n.mp4"))).file?.cachedRanges
            #expect(cached == [ByteRange(offset: 0, length: 1_000_000)].compactMap { $0 })
        }
    }

    @Test("A job waits while the origin's breaker is open, then runs once the origin is back")
    func waitsForTheBreaker() async throws {
        // An origin that is down: its port refuses connections.
        let down = try RefusingPort()
        let port = down.port
        let configure: (inout CacheProxyConfiguration) -> Void = {
            $0.breaker = CircuitBreakerConfiguration(failureThreshold: 1, coolDown: .seconds(2))
        }
        try await ProxyHarness.run(configure: configure) { harness in
            let url = "http://127.0.0.1:\(port)/b/master.m3u8"
            #expect(try await harness.fetch(harness.proxyURL(forOrigin: url)).status == 502)
            #expect(harness.proxy.status?.breakers["127.0.0.1:\(port)"] == .open)
            _ = try await PrefetchTests.post(harness, #"{"urls": ["\#(url)"], "segments": 1}"#)
            // The origin comes back while the breaker is still open; the job waits for the
            // cool-down instead of failing at once, then runs.
            down.release()
            let back = try await TestOrigin.start(port: port)
            PrefetchTests.publish("b", on: back)
            #expect(harness.proxy.status?.prefetch.jobs.first?.state == .running, "waiting, not failed")
            let status = try await PrefetchTests.settle(harness)
            await back.stop()
            #expect(status.jobs.first?.state == .done, "\(status.jobs.map(\.detail))")
            #expect(back.requests(for: "/b/master.m3u8").count == 1)
            #expect(back.requests(for: "/b/low/s0.m4s").count == 1)
        }
    }
}
