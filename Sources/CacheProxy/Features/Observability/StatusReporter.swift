/// What `GET /status` and ``CacheProxy/status`` report on, and only that: the store, the
/// upstream lanes and counters (through the fetching), the address, prefetching and sessions.
struct StatusReporter: Sendable {
    let fetching: FetchEnvironment
    let addresses: ProxyAddresses
    let prefetch: PrefetchScheduler
    let sessions: SessionRegistry
    let startedAt: ContinuousClock.Instant

    /// A snapshot of the proxy's state.
    var status: ProxyStatus {
        let store = fetching.store
        let upstream = fetching.upstream
        let statistics = store.statistics
        let space = store.space
        func lane(_ lane: UpstreamLane) -> ProxyStatus.Lane {
            let snapshot = lane.snapshot
            return ProxyStatus.Lane(capacity: lane.capacity, active: snapshot.active, waiting: snapshot.waiting, completed: snapshot.completed)
        }
        let elapsed = ContinuousClock.now - startedAt
        return ProxyStatus(
            version: CacheProxy.version,
            port: addresses.port,
            uptimeSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
            cache: ProxyStatus.Cache(
                directory: store.directory, sizeBytes: store.totalBytes, limitBytes: store.maximumSize,
                entries: store.entries.count, hits: statistics.hits, misses: statistics.misses,
                bytesFromCache: statistics.bytesFromCache, bytesFromOrigin: statistics.bytesFromOrigin,
                evictions: statistics.evictions),
            store: ProxyStatus.Store(diskFull: space.diskFull, freeBytes: space.freeBytes, minimumFreeBytes: space.minimumFreeBytes),
            express: lane(upstream.express),
            segment: lane(upstream.segments),
            traffic: fetching.counters.snapshot,
            breakers: upstream.breakers.states,
            prefetch: prefetch.status,
            sessions: sessions.statuses)
    }
}
