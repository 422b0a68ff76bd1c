import CacheStore
import Logging
import NIOCore
import NIOPosix
import Synchronization

/// What every connection of a running proxy shares.
final class ProxyContext: Sendable {
    let store: CacheStore
    let configuration: CacheProxyConfiguration
    let upstream: Upstream
    let counters: ProxyCounters
    /// Init segments and keys that playlists named: requests for them take the express lane.
    let express = RangeRegistry()
    /// The first segments of the media playlists served to players: fetched as a start.
    let startingSegments = RangeRegistry()
    /// The segments of the VOD playlists served to players, on their timelines: how long a
    /// playing player's buffer lasts.
    let playbackTimeline = PlaybackTimeline()
    let playlistFetches: PlaylistFetches
    let playlistFreshness: PlaylistFreshness
    let fetches = FetchTasks()
    let prefetch = PrefetchScheduler()
    let sessions = SessionRegistry()
    let downloads = DownloadManager()
    let storeRoomWarning = StoreRoomWarning()
    let heldFiles = HeldFiles()
    let mappedFiles: MappedCacheFiles
    let coldReader: ColdReader
    let allowList: HostAllowList?
    let logger: Logger
    let publicAddress: PublicAddress
    /// nil when ``CacheProxyConfiguration/recordsMetrics`` is off or there is no
    /// ``CacheProxyConfiguration/metricsFormat``.
    let metrics: ProxyMetrics?
    /// nil when ``CacheProxyConfiguration/writesAccessLog`` is off or the logger drops `info`.
    let accessLog: AccessLog?
    let connections = OpenConnections()
    let startedAt = ContinuousClock.now
    /// The port the proxy listens on, once it does.
    let listeningPort = Mutex<Int?>(nil)

    /// The event loops of the proxy's connections and origin clients; the context's own, so
    /// that ``shutdown()`` stops them with everything that runs on them.
    let group: MultiThreadedEventLoopGroup

    init(store: CacheStore, configuration: CacheProxyConfiguration, originClient: OriginClientKind, threads: Int, logger: Logger) {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        self.group = group
        self.store = store
        self.configuration = configuration
        self.logger = logger
        counters = ProxyCounters()
        mappedFiles = MappedCacheFiles(limit: configuration.mappedFiles.limit)
        publicAddress = PublicAddress(configuration)
        metrics = configuration.recordsMetrics
            ? configuration.metricsFormat.map { ProxyMetrics(format: $0, evictionsSoFar: store.statistics.evictions) } : nil
        accessLog = configuration.writesAccessLog && logger.logLevel <= .info
            ? AccessLog(logger: logger) : nil
        coldReader = ColdReader(threads: configuration.coldReadThreads, counters: counters, metrics: metrics)
        upstream = Upstream(store: store, configuration: configuration, originClient: originClient, group: group, counters: counters,
                            metrics: metrics, logger: logger)
        playlistFetches = PlaylistFetches(upstream: upstream, limit: configuration.limits.maximumPlaylistBytes)
        playlistFreshness = PlaylistFreshness(defaultLifetime: configuration.playlistFreshness)
        allowList = HostAllowList(configuration.allowedHosts)
    }
}

extension ProxyContext {
    /// A response could not be stored for lack of room: warns at most once a minute, and makes
    /// idle connections let go of removed files, whose blocks they would keep allocated.
    func noteStoreHasNoRoom() {
        storeRoomWarning.note(logger, space: store.space, maximumSize: store.maximumSize)
        heldFiles.releaseRemoved(from: store)
        mappedFiles.dropRemoved(from: store)
    }
}

extension ProxyContext {
    /// Stops everything the context started, in the order that lets each part end cleanly: the
    /// work that fetches (sessions, downloads, prefetching, fills in flight), then the origin
    /// clients, then the event loops they ran on, then the cold-read threads, the mappings and
    /// the access log. The one way a context ends: a proxy that stops, a proxy whose bind
    /// failed, and an offline download. Every part may never have been used.
    func shutdown() async {
        await sessions.shutdown()
        await downloads.shutdown()
        await prefetch.shutdown()
        await fetches.cancelAll()
        await upstream.shutdown()
        try? await group.shutdownGracefully()
        await coldReader.shutdown()
        mappedFiles.dropAll()
        accessLog?.finish()
    }
}
