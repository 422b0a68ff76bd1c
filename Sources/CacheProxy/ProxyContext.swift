import CacheStore
import Logging
import NIOCore
import NIOPosix

/// What every connection of a running proxy shares: the fetching (``FetchEnvironment``), what
/// answering from the cache needs (``HitEnvironment``) and what only the routes need
/// (connections, the features steered over HTTP, addresses).
final class ProxyContext: Sendable {
    /// Everything that fetches from origins, shared with prefetching, downloads and sessions.
    let fetching: FetchEnvironment
    /// Everything that answers from the cache: the hit path, byte responses, the store's control.
    let hits: HitEnvironment
    // The fetching's parts the routes read, kept here too so that a route reaches them in one step.
    let configuration: CacheProxyConfiguration
    let upstream: Upstream
    let counters: ProxyCounters
    let prefetch = PrefetchScheduler()
    let sessions = SessionRegistry()
    let downloads = DownloadManager()
    let logger: Logger
    let addresses: ProxyAddresses
    /// nil when ``CacheProxyConfiguration/recordsMetrics`` is off or there is no
    /// ``CacheProxyConfiguration/metricsFormat``.
    let metrics: ProxyMetrics?
    let connections = OpenConnections()
    let statusReporter: StatusReporter

    /// The event loops of the proxy's connections and origin clients; the context's own, so
    /// that ``shutdown()`` stops them with everything that runs on them.
    let group: MultiThreadedEventLoopGroup

    init(store: CacheStore, configuration: CacheProxyConfiguration, originClient: OriginClientKind, threads: Int, logger: Logger) {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        self.group = group
        self.configuration = configuration
        self.logger = logger
        let counters = ProxyCounters()
        self.counters = counters
        let heldFiles = HeldFiles()
        let mappedFiles = MappedCacheFiles(limit: configuration.mappedFiles.limit)
        addresses = ProxyAddresses(configuration)
        let metrics = configuration.recordsMetrics
            ? configuration.metricsFormat.map { ProxyMetrics(format: $0, evictionsSoFar: store.statistics.evictions) } : nil
        self.metrics = metrics
        // Idle connections and mappings would keep the blocks of removed files allocated.
        fetching = FetchEnvironment(store: store, configuration: configuration, originClient: originClient, group: group,
                                    counters: counters, metrics: metrics, logger: logger) {
            heldFiles.releaseRemoved(from: store)
            mappedFiles.dropRemoved(from: store)
        }
        upstream = fetching.upstream
        let accessLog = configuration.writesAccessLog && logger.logLevel <= .info ? AccessLog(logger: logger) : nil
        let coldReader = ColdReader(threads: configuration.coldReadThreads, counters: counters, metrics: metrics)
        hits = HitEnvironment(fetching: fetching, accessLog: accessLog, coldReader: coldReader, heldFiles: heldFiles, mappedFiles: mappedFiles)
        statusReporter = StatusReporter(fetching: fetching, addresses: addresses, prefetch: prefetch, sessions: sessions, startedAt: .now)
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
        await fetching.shutdown()
        try? await group.shutdownGracefully()
        await hits.coldReader.shutdown()
        hits.mappedFiles.dropAll()
        hits.accessLog?.finish()
    }
}
