import CacheProxy
import CacheProxyServer
import CacheProxyParsing
import CacheStore
import SparseFile
import Logging
import Synchronization
import Testing
import TestSupport

@Suite("Offline downloads", .timeLimit(.minutes(2)))
struct DownloadTests {
    static func downloader(_ harness: ProxyHarness) throws -> OfflineDownloader {
        var logger = Logger(label: "test.download")
        logger.logLevel = .error
        return try OfflineDownloader(store: harness.store, configuration: .server, logger: logger)
    }

    @Test("A whole presentation is downloaded, and then plays with the origin down")
    func wholePresentation() async throws {
        try await ProxyHarness.run { harness in
            PrefetchTests.publish("w", on: harness.origin, segments: 6)
            let progress = ProgressLog()
            let report = try await Self.downloader(harness).download(harness.origin.url("/w/master.m3u8")) { progress.record($0) }
            #expect(report.segments == 6)
            #expect(report.resources == 2 + 1 + 6)  // two playlists, the init section, six segments
            let last = try #require(progress.last, "progress was reported")
            #expect(last.resourcesDone == report.resources && last.resourcesTotal == report.resources)
            #expect(last.segmentsDone == 6 && last.segmentsTotal == 6)
            #expect(!harness.origin.requests.contains { $0.path.hasPrefix("/w/low/") })
            await harness.origin.stop()
            #expect(try await harness.get("/w/master.m3u8").status == 200)
            #expect(try await harness.get("/w/high/index.m3u8").status == 200)
            #expect(try await harness.get("/w/high/init.mp4").body == TestBytes(seed: 7).bytes(0, 1000))
            for index in 0..<6 {
                let segment = try await harness.get("/w/high/s\(index).m4s")
                #expect(segment.body == TestBytes(seed: UInt64(index)).bytes(0, PrefetchTests.segmentSize))
            }
        }
    }

    @Test("An interrupted download resumes where it stopped and never asks again for a byte it stored")
    func resumesWithoutRefetching() async throws {
        try await ProxyHarness.run { harness in
            let slow = TestOrigin.Faults(chunkDelay: .milliseconds(20), chunkSize: 10_000)
            PrefetchTests.publish("r", on: harness.origin, segments: 8, faults: slow)
            let url = harness.origin.url("/r/master.m3u8")
            let store = harness.store
            func cached(_ path: String) -> [ByteRange] {
                store.reader(for: store.key(for: harness.origin.url(path))).file?.cachedRanges ?? []
            }
            let paths = (0..<8).map { "/r/high/s\($0).m4s" }
            let first = Task { try await Self.downloader(harness).download(url) }
            // Interrupt it once some segment bytes are stored, part-way through.
            try await waitUntil("some segment bytes are stored") { paths.contains { !cached($0).isEmpty } }
            first.cancel()
            _ = await first.result
            let storedBefore = Dictionary(uniqueKeysWithValues: paths.map { ($0, cached($0)) })
            #expect(storedBefore.values.contains { !$0.isEmpty })
            harness.origin.resetLog()
            let report = try await Self.downloader(harness).download(url)
            #expect(report.segments == 8)
            for path in paths {
                #expect(cached(path) == [ByteRange(offset: 0, length: UInt64(PrefetchTests.segmentSize))])
                for request in harness.origin.requests(for: path) {
                    let asked = Self.range(of: request, length: PrefetchTests.segmentSize)
                    #expect(!(storedBefore[path] ?? []).contains { $0.overlaps(asked) }, "\(path): \(request) asks again for stored bytes")
                }
            }
        }
    }

    static func range(of request: TestOrigin.Request, length: Int) -> ByteRange {
        guard let header = request.range, case .single(let specifier)? = try? RangeRequest(parsing: header),
              let resolved = specifier.resolve(length: UInt64(length)),
              let range = ByteRange(from: resolved.lowerBound, to: resolved.upperBound) else {
            return ByteRange(offset: 0, length: UInt64(length))!
        }
        return range
    }

    @Test("Every variant and rendition with --all-variants, pinned with --pin")
    func allVariantsPinned() async throws {
        try await ProxyHarness.run { harness in
            PrefetchTests.publish("a", on: harness.origin, segments: 2)
            var options = OfflineDownloader.Options()
            options.allVariants = true
            options.pin = true
            let report = try await Self.downloader(harness).download(harness.origin.url("/a/master.m3u8"), options: options)
            #expect(report.segments == 4)
            // The multivariant playlist, two media playlists, two init sections, four segments.
            #expect(report.keys.count == 9)
            #expect(Set(report.keys) == Set(harness.store.entries.map(\.key)))
            #expect(harness.store.entries.count { $0.pinned } == 9)
        }
    }

    @Test("A live presentation cannot be downloaded whole, and says so")
    func livePresentation() async throws {
        try await ProxyHarness.run { harness in
            harness.origin.set("/live.m3u8", .init(PlaylistTests.media(["1.ts"], endList: false), contentType: "application/vnd.apple.mpegurl"))
            let error = await #expect(throws: DownloadError.self) {
                try await Self.downloader(harness).download(harness.origin.url("/live.m3u8"))
            }
            #expect(error?.message.contains("live") == true)
        }
    }

    @Test("A resource the origin refuses fails the download and names it")
    func missingSegment() async throws {
        try await ProxyHarness.run { harness in
            PrefetchTests.publish("m", on: harness.origin, segments: 3)
            harness.origin.update("/m/high/s1.m4s") { $0.faults.status = 404 }
            var options = OfflineDownloader.Options()
            options.attempts = 2
            let error = await #expect(throws: DownloadError.self) {
                try await Self.downloader(harness).download(harness.origin.url("/m/master.m3u8"), options: options)
            }
            #expect(error?.failures.count == 1)
            #expect(error?.failures.first?.contains("s1.m4s") == true)
        }
    }

    @Test("A 5xx is tried again after growing pauses; a 404 is not")
    func retriesServerErrorsWithBackoff() async throws {
        try await ProxyHarness.run { harness in
            let body = TestBytes(seed: 93).bytes(0, 50_000)
            harness.origin.set("/flaky.bin", .init(body, contentType: "application/octet-stream", faults: .init(status: 503, statusCount: 2)))
            let report = try await Self.downloader(harness).download(harness.origin.url("/flaky.bin"))
            #expect(report.bytesFetched == UInt64(body.count))
            let times = harness.origin.requests(for: "/flaky.bin").map(\.time)
            try #require(times.count == 3, "two failures, then the success")
            let (first, second) = (times[1] - times[0], times[2] - times[1])
            #expect(first >= .milliseconds(450), "the first pause: \(first)")
            #expect(second >= .milliseconds(900), "the second pause is longer: \(second)")
            harness.origin.set("/gone.bin", .init(body, faults: .init(status: 404)))
            await #expect(throws: DownloadError.self) { try await Self.downloader(harness).download(harness.origin.url("/gone.bin")) }
            #expect(harness.origin.requests(for: "/gone.bin").count == 1)
        }
    }

    @Test("A plain file is downloaded whole")
    func plainFile() async throws {
        try await ProxyHarness.run { harness in
            let file = MP4Fixture.make(mediaBytes: 500_000, seconds: 5)
            harness.origin.set("/f.mp4", .init(file.bytes, contentType: "video/mp4"))
            let report = try await Self.downloader(harness).download(harness.origin.url("/f.mp4"))
            #expect(report.bytesFetched == UInt64(file.bytes.count))
            await harness.origin.stop()
            #expect(try await harness.get("/f.mp4").body == file.bytes)
        }
    }
}

/// The progress reports of a run.
final class ProgressLog: Sendable {
    private let reports = Mutex<[DownloadProgress]>([])
    func record(_ progress: DownloadProgress) { reports.withLock { $0.append(progress) } }
    var last: DownloadProgress? { reports.withLock { $0.last } }
}
