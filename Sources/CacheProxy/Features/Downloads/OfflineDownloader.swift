public import CacheProxyParsing
public import CacheStore
import HLS
import NIOPosix
public import Logging
import SparseFile
import Synchronization

/// Downloads a whole HLS presentation (its playlists, every segment, init section and key, and
/// the audio and subtitle renditions of the chosen variants), a whole DASH presentation (its
/// MPD, and in every Period the chosen Representation of each AdaptationSet with its init
/// section, `sidx` and every segment) or a whole file into a store, so that a ``CacheProxy`` on
/// that store plays it with the origin down.
///
/// Everything is cached exactly as the proxy caches it. A run fetches only what the store
/// lacks, so running it again after an interruption continues where it stopped (byte ranges of
/// a partly fetched segment included). Fetches run a few at a time on the proxy's segment lane
/// and are retried with backoff.
public final class OfflineDownloader: Sendable {
    public struct Options: Sendable {
        /// Which variant of a multivariant playlist to download. Default: the highest.
        public var variant: PrefetchRequest.VariantChoice = .highest
        /// Download every variant (and every rendition) instead of one.
        public var allVariants = false
        /// Pin everything downloaded, so eviction never removes it.
        public var pin = false
        /// Fetches at once.
        public var concurrency = 4
        /// Tries per resource before the run gives up on it.
        public var attempts = 4
        /// The most segments a download fetches (all Representations together). An MPD lists
        /// its segments by formula (a `SegmentTimeline` `@r`, a template `@duration`), so a
        /// hostile or broken one can name billions; past this the download is refused with
        /// `DownloadError.Code.tooManySegments` before anything but the MPD is fetched.
        /// Default 100,000: 55 hours of 2-second segments.
        public var maximumSegments = 100_000
        /// Header fields every origin request of the download carries (credentials), over
        /// the configuration's ``CacheProxyConfiguration/originHeaders`` for each host.
        public var headers = OriginHeaderFields()

        public init() {}
    }

    private let store: CacheStore
    private let configuration: CacheProxyConfiguration
    private let originClient: OriginClientKind
    private let logger: Logger

    /// - Throws: `CacheProxyError.Code.invalidConfiguration` when the configuration names no
    ///   ``CacheProxyConfiguration/originClient``.
    public init(store: CacheStore, configuration: CacheProxyConfiguration,
                logger: Logger = Logger(label: "sparsecache.fetch")) throws(CacheProxyError) {
        self.store = store
        self.configuration = configuration
        originClient = try configuration.chosenOriginClient()
        self.logger = logger
    }

    /// Downloads `url`; `progress` is called after every resource.
    ///
    /// - Throws: ``DownloadError`` when a resource could not be fetched after every attempt, or
    ///   the presentation is live (it never ends, so it cannot be downloaded whole);
    ///   `CancellationError` when the task is cancelled (what was fetched is kept).
    public func download(
        _ url: String, options: Options = Options(), progress: @escaping @Sendable (DownloadProgress) -> Void = { _ in }
    ) async throws -> DownloadReport {
        let origin: OriginURL
        do {
            origin = try OriginURL(parsing: url)
        } catch {
            throw DownloadError(message: "\(url) is not an http(s) URL: \(error.message)", failures: [])
        }
        // Fetching alone: a download serves nothing, so it has no connections, mappings or
        // cold-read threads, and keeps no metrics.
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let environment = FetchEnvironment(store: store, configuration: configuration, originClient: originClient, group: group,
                                           counters: ProxyCounters(), metrics: nil, logger: logger)
        let run = DownloadRun(environment: environment, options: options, progress: progress)
        let outcome: Result<DownloadReport, any Error>
        do {
            outcome = .success(try await run.download(origin))
        } catch {
            outcome = .failure(error)
        }
        await environment.shutdown()
        try? await group.shutdownGracefully()
        return try outcome.get()
    }
}
