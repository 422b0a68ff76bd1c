import CacheProxy
import CacheProxyParsing
import CacheStore
import DASH
import Foundation
import SparseFile
import Testing
import TestSupport

/// Downloading DASH presentations for offline play (`sparsecache fetch`, `POST /downloads`):
/// everything a player of the chosen Representations requests is cached, then served with the
/// origin stopped; hostile and broken MPDs are refused with a code before their segments are
/// fetched.
@Suite("Downloading DASH presentations", .timeLimit(.minutes(2)))
struct DASHDownloadTests {
    /// The origin path a proxy path-form URL stands for.
    static func originPath(_ harness: ProxyHarness, _ proxyURL: String) throws -> String {
        let origin = try #require(DASHProxyEndpoint(port: UInt16(harness.port)).originURL(for: proxyURL))
        return try #require(URL(string: origin)?.path)
    }

    /// The segment after the last one a `$Number$` MPD lists, asked for by ffmpeg's dash demuxer.
    static let pastTheEnd = ["/v/chunk-v1-00004.m4s", "/v/chunk-a1-00004.m4s"]

    @Test("A SegmentTemplate presentation is downloaded whole, and then a player gets every byte from the proxy with the origin stopped")
    func templateThenOffline() async throws {
        try await ProxyHarness.run { harness in
            let mpd = DASHTestPresentation.serveTemplate(on: harness.origin)
            let progress = ProgressLog()
            let report = try await DownloadTests.downloader(harness).download(harness.origin.url(mpd)) { progress.record($0) }
            #expect(report.segments == 6)
            #expect(report.resources == 1 + 2 + 6, "the MPD, two init sections, six segments")
            #expect(progress.last?.segmentsDone == 6 && progress.last?.resourcesTotal == 9)
            // The segment past the end of each Representation is asked for (the origin has none).
            #expect(Set(harness.origin.requests.map(\.path)) == Set([mpd] + DASHTestPresentation.templatePaths("/v/") + Self.pastTheEnd))
            await harness.origin.stop()
            let play = try await DASHTestPlayer(harness: harness).play(try DASHProxyTests.dashURL(harness, mpd))
            #expect(play.fetched.count == 8)
            for fetched in play.fetched {
                let path = try Self.originPath(harness, fetched.url)
                let seed = try #require(DASHTestPresentation.templatePaths("/v/").firstIndex(of: path)) + 1
                #expect(fetched.body == TestBytes(seed: UInt64(seed)).bytes(0, DASHTestPresentation.segmentBytes), "\(path)")
            }
        }
    }

    @Test("A $Number$ segment one past the MPD's last (ffmpeg's players read it, ffmpeg's muxer writes it for audio) is downloaded when the origin has it")
    func segmentPastTheEnd() async throws {
        try await ProxyHarness.run { harness in
            let mpd = DASHTestPresentation.serveTemplate(on: harness.origin)
            let tail = TestBytes(seed: 90).bytes(0, 3000)
            harness.origin.set(Self.pastTheEnd[1], .init(tail, contentType: "audio/mp4"))
            let report = try await DownloadTests.downloader(harness).download(harness.origin.url(mpd))
            #expect(report.segments == 6, "listed segments only")
            #expect(report.resources == 1 + 2 + 6 + 1)
            await harness.origin.stop()
            #expect(try await harness.fetch(try DASHProxyTests.dashURL(harness, Self.pastTheEnd[1])).body == tail)
        }
    }

    @Test("SegmentBase: the init section, the sidx, every segment it lists and the rest of the file, in one cache file")
    func segmentBaseWhole() async throws {
        try await ProxyHarness.run { harness in
            let mpd = DASHTestPresentation.serveSegmentBase(on: harness.origin)
            // Bytes after the last segment the sidx lists (an mfra box, say): a player may read them.
            let file = DASHTestPresentation.segmentBaseFile + TestBytes(seed: 79).bytes(0, 700)
            harness.origin.set("/sb/stream.mp4", .init(file, contentType: "video/mp4"))
            let report = try await DownloadTests.downloader(harness).download(harness.origin.url(mpd))
            #expect(report.segments == DASHTestPresentation.segmentCount)
            let cached = harness.store.reader(for: harness.store.key(for: harness.origin.url("/sb/stream.mp4"))).file?.cachedRanges
            #expect(cached == [try #require(ByteRange(offset: 0, length: UInt64(file.count)))])
            await harness.origin.stop()
            let play = try await DASHTestPlayer(harness: harness).play(try DASHProxyTests.dashURL(harness, mpd))
            #expect(play.fetched.count == 2 + DASHTestPresentation.segmentCount)
            for fetched in play.fetched {
                let range = try #require(fetched.range)
                #expect(fetched.body == Array(file[Int(range.first)...Int(range.last)]))
            }
            #expect(try await harness.fetch(try DASHProxyTests.dashURL(harness, "/sb/stream.mp4")).body == file)
        }
    }

    @Test("Every Period's chosen Representation, under its Period's BaseURL, by SegmentTimeline $Time$ and by $Number$",
          arguments: [(PrefetchRequest.VariantChoice.lowest, "low"), (.height(720), "high"), (.closest(310_000), "low")])
    func chosenRepresentationOfEveryPeriod(choice: PrefetchRequest.VariantChoice, representation: String) async throws {
        try await ProxyHarness.run { harness in
            let mpd = DASHTestPresentation.serveLadder(on: harness.origin)
            var options = OfflineDownloader.Options()
            options.variant = choice
            let report = try await DownloadTests.downloader(harness).download(harness.origin.url(mpd), options: options)
            #expect(report.segments == 4)
            let paths = DASHTestPresentation.ladderPaths("/l/", representation: representation)
            // Period 2's $Number$ segment past its end is asked for too (the origin has none).
            #expect(Set(harness.origin.requests.map(\.path)) == Set([mpd] + paths + ["/l/p2/\(representation)/n3.m4s"]))
            await harness.origin.stop()
            #expect(try await harness.fetch(try DASHProxyTests.dashURL(harness, mpd)).status == 200)
            for path in paths {
                #expect(try await harness.fetch(try DASHProxyTests.dashURL(harness, path)).body == DASHTestPresentation.ladderBytes(path), "\(path)")
            }
        }
    }

    @Test("--all-variants downloads every Representation of every Period, pinned with --pin")
    func allRepresentationsPinned() async throws {
        try await ProxyHarness.run { harness in
            let mpd = DASHTestPresentation.serveLadder(on: harness.origin)
            var options = OfflineDownloader.Options()
            options.allVariants = true
            options.pin = true
            let report = try await DownloadTests.downloader(harness).download(harness.origin.url(mpd), options: options)
            #expect(report.segments == 8)
            #expect(report.keys.count == 1 + 12)
            #expect(harness.store.entries.count { $0.pinned } == 13)
        }
    }

    /// MPDs a download refuses, and the code it refuses them with.
    static let refused: [(name: String, body: String, code: DownloadError.Code)] = [
        // Without a presentation duration, nothing ends the run before its 2^63-1 segments.
        ("an @r of 2^63-2", DASHHostileManifestTests.header
            + DASHHostileManifestTests.root.replacingOccurrences(of: #" mediaPresentationDuration="PT6S""#, with: "") + """
            <Period><AdaptationSet mimeType="video/mp4"><Representation id="0" bandwidth="1">
            <SegmentTemplate timescale="1" media="s-$Time$.m4s" initialization="init.m4s"><SegmentTimeline>
            <S t="0" d="2" r="9223372036854775806"/></SegmentTimeline></SegmentTemplate></Representation></AdaptationSet></Period></MPD>
            """, .tooManySegments),
        ("a 1 ms @duration over 1000 hours", DASHHostileManifestTests.header + DASHHostileManifestTests.root
            .replacingOccurrences(of: "PT6S", with: "PT1000H") + """
            <Period><AdaptationSet mimeType="video/mp4"><Representation id="0" bandwidth="1">
            <SegmentTemplate timescale="1000" duration="1" media="s-$Number$.m4s"/></Representation></AdaptationSet></Period></MPD>
            """, .tooManySegments),
        ("a remote Period", DASHHostileManifestTests.header + DASHHostileManifestTests.root
            + #"<Period xlink:href="http://evil.example/period.xml" xlink:actuate="onLoad"/></MPD>"#, .unplayable),
        ("a DOCTYPE with entities", DASHHostileManifestTests.header + #"<!DOCTYPE MPD [<!ENTITY a "aaaaaaaaaa">]>"#
            + DASHHostileManifestTests.root + "<Period>&a;</Period></MPD>", .unplayable),
        ("a template of an unknown identifier", DASHHostileManifestTests.header + DASHHostileManifestTests.root + """
            <Period><AdaptationSet mimeType="video/mp4"><Representation id="0" bandwidth="1">
            <SegmentTemplate timescale="1" duration="2" media="s-$Nmber$.m4s"/></Representation></AdaptationSet></Period></MPD>
            """, .unplayable),
        ("a dynamic MPD", String(decoding: DASHTestPresentation.templateMPD(type: "dynamic"), as: UTF8.self), .live),
    ]

    @Test("A hostile, broken or live MPD is refused with its code, and nothing but the MPD is fetched",
          arguments: refused.indices)
    func refusedManifests(index: Int) async throws {
        let (name, body, code) = Self.refused[index]
        try await ProxyHarness.run { harness in
            harness.origin.set("/h/manifest.mpd", .init(Array(body.utf8), contentType: DASHTestPresentation.mpdType))
            DASHTestPresentation.serveTemplate(on: harness.origin, at: "/h/", mpdPath: "unused.mpd")
            let started = ContinuousClock.now
            let error = await #expect(throws: DownloadError.self, "\(name)") {
                try await DownloadTests.downloader(harness).download(harness.origin.url("/h/manifest.mpd"))
            }
            #expect(error?.code == code, "\(name): \(error.map(String.init(describing:)) ?? "no error")")
            #expect(harness.origin.requests.map(\.path) == ["/h/manifest.mpd"], "\(name)")
            #expect(ContinuousClock.now - started < .seconds(20), "\(name): refused at once")
        }
    }

    @Test("A download past its segment limit is refused before any segment is fetched")
    func segmentLimit() async throws {
        try await ProxyHarness.run { harness in
            let mpd = DASHTestPresentation.serveTemplate(on: harness.origin)
            var options = OfflineDownloader.Options()
            options.maximumSegments = 5
            let error = await #expect(throws: DownloadError.self) {
                try await DownloadTests.downloader(harness).download(harness.origin.url(mpd), options: options)
            }
            #expect(error?.code == .tooManySegments)
            #expect(harness.origin.requests.map(\.path) == [mpd])
        }
    }

    @Test("An origin that drops the connection mid-segment fails the download and names the segment; run again, it completes and plays offline")
    func originDropsMidDownload() async throws {
        try await ProxyHarness.run { harness in
            let mpd = DASHTestPresentation.serveTemplate(on: harness.origin)
            let broken = "/v/chunk-v1-00002.m4s"
            harness.origin.update(broken) { $0.faults.dropAfter = 10_000 }
            var options = OfflineDownloader.Options()
            options.attempts = 2
            let error = await #expect(throws: DownloadError.self) {
                try await DownloadTests.downloader(harness).download(harness.origin.url(mpd), options: options)
            }
            #expect(error?.code == .fetchFailed)
            #expect(error?.failures.count == 1)
            #expect(error?.failures.first?.contains(broken) == true)
            // The other resources were stored; the broken one's received bytes too.
            let cached = harness.store.reader(for: harness.store.key(for: harness.origin.url(broken))).file?.cachedRanges ?? []
            #expect(!cached.isEmpty)
            harness.origin.update(broken) { $0.faults.dropAfter = nil }
            harness.origin.resetLog()
            let report = try await DownloadTests.downloader(harness).download(harness.origin.url(mpd))
            #expect(report.segments == 6)
            #expect(Set(harness.origin.requests.map(\.path)) == Set([broken] + Self.pastTheEnd), "only the rest of the broken segment is fetched again")
            await harness.origin.stop()
            let segment = try await harness.fetch(try DASHProxyTests.dashURL(harness, broken))
            #expect(segment.body == TestBytes(seed: 3).bytes(0, DASHTestPresentation.segmentBytes))
        }
    }

    @Test("POST /downloads takes an MPD and a variant such as 720p; the presentation then plays with the origin down")
    func downloadThroughTheProxy() async throws {
        try await ProxyHarness.run { harness in
            let mpd = DASHTestPresentation.serveLadder(on: harness.origin)
            let client = SessionClient(harness: harness)
            let started = try await client.send(.POST, "/downloads", body: #"{"url": "\#(harness.origin.url(mpd))", "variant": "720p"}"#)
            #expect(started.status == 202)
            let id = try #require(SessionClient.object(started.body)?["id"] as? String)
            let done = try await DownloadServingTests.waitForState(client, id, in: ["done", "failed"])
            #expect(done["state"] as? String == "done", "\(done)")
            #expect(done["segments"] as? Int == 4 && done["segmentsDone"] as? Int == 4)
            await harness.origin.stop()
            for path in DASHTestPresentation.ladderPaths("/l/", representation: "high") {
                #expect(try await harness.fetch(try DASHProxyTests.dashURL(harness, path)).body == DASHTestPresentation.ladderBytes(path), "\(path)")
            }
        }
    }
}
