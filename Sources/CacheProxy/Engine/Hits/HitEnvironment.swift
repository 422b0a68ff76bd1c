import CacheStore

/// What answering from the cache needs: the store, the files connections hold open or map, cold
/// reads, the counters, metrics and access log, and the fetching that a response falls back on
/// for bytes the cache does not hold. The hit path, byte responses and the store's control take
/// it at `init` rather than the whole proxy (``ProxyContext``), which adds the connections, the
/// features steered over HTTP and the addresses.
final class HitEnvironment: Sendable {
    let fetching: FetchEnvironment
    // The fetching's parts read on every hit, kept here too so that a hit reaches them in one step.
    let store: CacheStore
    let configuration: CacheProxyConfiguration
    let upstream: Upstream
    let counters: ProxyCounters
    let metrics: ProxyMetrics?
    /// nil when ``CacheProxyConfiguration/writesAccessLog`` is off or the logger drops `info`.
    let accessLog: AccessLog?
    let coldReader: ColdReader
    /// The connections' kept descriptors and the files' mappings, both let go of when the store
    /// removes their files.
    let heldFiles: HeldFiles
    let mappedFiles: MappedCacheFiles

    init(fetching: FetchEnvironment, accessLog: AccessLog?, coldReader: ColdReader, heldFiles: HeldFiles, mappedFiles: MappedCacheFiles) {
        self.fetching = fetching
        store = fetching.store
        configuration = fetching.configuration
        upstream = fetching.upstream
        counters = fetching.counters
        metrics = fetching.metrics
        self.accessLog = accessLog
        self.coldReader = coldReader
        self.heldFiles = heldFiles
        self.mappedFiles = mappedFiles
    }
}
