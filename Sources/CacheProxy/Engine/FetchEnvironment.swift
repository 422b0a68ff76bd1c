import CacheProxyParsing
import CacheStore
import Logging
import NIOCore

/// What fetching from origins into the store needs, and nothing of serving connections: the
/// store, the upstream lanes and clients, the playlist fetches and their freshness, the fills in
/// flight and the registries that choose their lane and urgency. The playlist loader, fills,
/// prefetching, downloads and playback sessions take this; an offline download makes this alone.
final class FetchEnvironment: Sendable {
    let store: CacheStore
    let configuration: CacheProxyConfiguration
    let upstream: Upstream
    let counters: ProxyCounters
    /// nil when ``CacheProxyConfiguration/recordsMetrics`` is off or there is no
    /// ``CacheProxyConfiguration/metricsFormat``.
    let metrics: ProxyMetrics?
    let logger: Logger
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
    private let allowList: HostAllowList?
    private let storeRoomWarning = StoreRoomWarning()
    /// What else a full store asks of the owner (a proxy's connections let go of removed files).
    private let whenStoreHasNoRoom: @Sendable () -> Void

    init(store: CacheStore, configuration: CacheProxyConfiguration, originClient: OriginClientKind, group: any EventLoopGroup,
         counters: ProxyCounters, metrics: ProxyMetrics?, logger: Logger,
         whenStoreHasNoRoom: @escaping @Sendable () -> Void = {}) {
        self.store = store
        self.configuration = configuration
        self.counters = counters
        self.metrics = metrics
        self.logger = logger
        self.whenStoreHasNoRoom = whenStoreHasNoRoom
        upstream = Upstream(store: store, configuration: configuration, originClient: originClient, group: group, counters: counters,
                            metrics: metrics, logger: logger)
        playlistFetches = PlaylistFetches(upstream: upstream, limit: configuration.limits.maximumPlaylistBytes)
        playlistFreshness = PlaylistFreshness(defaultLifetime: configuration.playlistFreshness)
        allowList = HostAllowList(configuration.allowedHosts)
    }

    /// Whether the proxy may fetch `origin` (its host is on the allow-list, when there is one).
    func allows(_ origin: OriginURL) -> Bool {
        allowList?.allows(origin.host) ?? true
    }

    /// A response could not be stored for lack of room: warns at most once a minute, and tells
    /// the owner (whose idle connections would keep removed files' blocks allocated).
    func noteStoreHasNoRoom() {
        storeRoomWarning.note(logger, space: store.space, maximumSize: store.maximumSize)
        whenStoreHasNoRoom()
    }

    /// Cancels the fills in flight, then ends the origin clients' connections.
    func shutdown() async {
        await fetches.cancelAll()
        await upstream.shutdown()
    }
}
