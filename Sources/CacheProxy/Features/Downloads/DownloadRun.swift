import CacheProxyParsing
import CacheStore
import HLS
import SparseFile
import Synchronization

/// One ``OfflineDownloader/download(_:options:progress:)`` call: finds every resource of the
/// presentation, fetches them a few at a time, and keeps count.
final class DownloadRun: Sendable {
    let environment: FetchEnvironment
    let options: OfflineDownloader.Options
    private let report: @Sendable (DownloadProgress) -> Void
    private let started = ContinuousClock.now
    private let counts = Mutex(Counts())

    private struct Counts {
        var resourcesDone = 0
        var resourcesTotal = 0
        var segmentsDone = 0
        var segmentsTotal = 0
        var bytesFetched: UInt64 = 0
        var keys: [String] = []
        var nextItem = 0
        var failures: [String] = []
    }

    init(environment: FetchEnvironment, options: OfflineDownloader.Options, progress: @escaping @Sendable (DownloadProgress) -> Void) {
        self.environment = environment
        self.options = options
        self.report = progress
    }

    var warmer: ResourceWarmer { ResourceWarmer(environment: environment, lane: .segment, urgency: .deep, headers: options.headers) }

    func download(_ origin: OriginURL) async throws -> DownloadReport {
        if PlaylistDetection.hasManifestExtension(origin) {
            try await downloadManifest(origin, isDASH: !PlaylistDetection.hasPlaylistExtension(origin))
        } else {
            expect(resources: 1, segments: 0)
            let fetched = try await withRetries(origin.string) { try await self.warmer.bytes(origin, attempts: self.options.attempts) }
            let file = environment.store.reader(for: environment.store.key(for: origin.string)).file
            if let metadata = file?.metadata, metadata.isManifest {
                try await downloadManifest(origin, isDASH: !metadata.isPlaylist)
            } else {
                done(origin, fetched: fetched, isSegment: false)
            }
        }
        if options.pin {
            for key in counts.withLock({ $0.keys }) { try? environment.store.setPinned(true, for: key) }
        }
        return counts.withLock { counts in
            DownloadReport(resources: counts.resourcesDone, segments: counts.segmentsDone, bytesFetched: counts.bytesFetched, keys: counts.keys)
        }
    }

    /// Downloads what the manifest at `origin` names: an MPD's presentation (only with the DASH
    /// trait, which alone makes `isDASH` true) or an HLS playlist's.
    private func downloadManifest(_ origin: OriginURL, isDASH: Bool) async throws {
        #if DASH
        if isDASH { return try await downloadDASHPresentation(origin) }
        #endif
        try await downloadPresentation(origin)
    }

    // MARK: HLS

    private func downloadPresentation(_ origin: OriginURL) async throws {
        let first = try await playlist(origin)
        var mediaPlaylists: [ResourceWarmer.FetchedPlaylist] = []
        if first.playlist.kind == .master {
            guard let base = HLSBaseURL(first.url) else { throw DownloadError(message: "\(first.url) cannot be resolved against", failures: []) }
            let variants: [HLSVariant]
            let renditions: [HLSRendition]
            if options.allVariants {
                variants = first.playlist.variants + first.playlist.iFrameVariants
                renditions = first.playlist.renditions.filter { $0.uri != nil }
            } else {
                guard let chosen = HLSWarmPlan.variant(of: first.playlist, choosing: options.variant) else {
                    throw DownloadError(message: "\(origin) lists no variant", failures: [])
                }
                variants = [chosen]
                renditions = HLSWarmPlan.renditions(for: chosen, in: first.playlist)
            }
            for uri in variants.map(\.uri) + renditions.compactMap(\.uri) {
                guard let mediaOrigin = try? OriginURL(parsing: base.resolve(uri)) else { continue }
                mediaPlaylists.append(try await playlist(mediaOrigin))
            }
        } else {
            mediaPlaylists = [first]
        }
        if let live = mediaPlaylists.first(where: { $0.playlist.isLive }) {
            throw DownloadError(code: .live, message: "\(live.url) is a live playlist: a live presentation never ends, so it cannot be downloaded whole", failures: [])
        }
        var items: [HLSWarmPlan.Item] = []
        var seen = Set<HLSWarmPlan.Item>()
        for media in mediaPlaylists {
            for item in HLSWarmPlan.items(of: media.playlist, url: media.url, budget: nil) where seen.insert(item).inserted {
                items.append(item)
            }
        }
        let segments = items.count { if case .segment = $0.kind { true } else { false } }
        expect(resources: items.count, segments: segments)
        try await fetchAll(items)
    }

    private func playlist(_ origin: OriginURL) async throws -> ResourceWarmer.FetchedPlaylist {
        expect(resources: 1, segments: 0)
        let fetched = try await withRetries(origin.string) { try await self.warmer.playlist(origin) }
        done(origin, fetched: fetched.fetchedBytes, isSegment: false)
        return fetched
    }

    /// Fetches `items` with at most `options.concurrency` at once; collects what failed.
    func fetchAll(_ items: [HLSWarmPlan.Item]) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<max(1, options.concurrency) {
                group.addTask {
                    while true {
                        try Task.checkCancellation()
                        let index = self.counts.withLock { counts -> Int in
                            defer { counts.nextItem += 1 }
                            return counts.nextItem
                        }
                        guard index < items.count else { return }
                        let item = items[index]
                        do {
                            let fetched = try await self.warmer.bytes(item.origin, range: item.range, attempts: self.options.attempts)
                            let isSegment = if case .segment = item.kind { true } else { false }
                            self.done(item.origin, fetched: fetched, isSegment: isSegment)
                        } catch let error as UpstreamError {
                            self.counts.withLock { $0.failures.append("\(item.origin): \(error.message)") }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let failed = counts.withLock { $0.failures }
        if !failed.isEmpty {
            throw DownloadError(message: "\(failed.count) of \(items.count) resources could not be fetched", failures: failed)
        }
    }

    func withRetries<T: Sendable>(_ what: String, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        var attempt = 0
        while true {
            do {
                return try await body()
            } catch let error as UpstreamError where error.isRetryable && attempt + 1 < options.attempts {
                attempt += 1
                try await Task.sleep(for: .milliseconds(250 << min(attempt, 5)))
            } catch let error as UpstreamError {
                // Some reasons start with the URL already; it is said once.
                let reason = error.message.hasPrefix(what + ": ") ? String(error.message.dropFirst(what.count + 2)) : error.message
                throw DownloadError(message: "cannot fetch \(what): \(reason)", failures: [])
            }
        }
    }

    // MARK: Counting

    func expect(resources: Int, segments: Int) {
        counts.withLock { counts in
            counts.resourcesTotal += resources
            counts.segmentsTotal += segments
        }
    }

    func done(_ origin: OriginURL, fetched: UInt64, isSegment: Bool) {
        let progress = counts.withLock { counts -> DownloadProgress in
            counts.resourcesDone += 1
            if isSegment { counts.segmentsDone += 1 }
            counts.bytesFetched += fetched
            let key = environment.store.key(for: origin.string)
            if !counts.keys.contains(key) { counts.keys.append(key) }
            let elapsed = ContinuousClock.now - started
            return DownloadProgress(
                resourcesDone: counts.resourcesDone, resourcesTotal: counts.resourcesTotal, segmentsDone: counts.segmentsDone,
                segmentsTotal: counts.segmentsTotal, bytesFetched: counts.bytesFetched,
                elapsedSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        report(progress)
    }
}
