import CacheStore
import Logging
import NIOCore
import Synchronization

/// What every connection of a running proxy shares.
final class ProxyContext: Sendable {
    let store: CacheStore
    let configuration: CacheProxyConfiguration
    let upstream: Upstream
    let counters: ProxyCounters
    let express = ExpressRegistry()
    let playlistFetches: PlaylistFetches
    let fetches = FetchTasks()
    let prefetch = PrefetchScheduler()
    let sessions = SessionRegistry()
    let downloads = DownloadManager()
    let storeRoomWarning = StoreRoomWarning()
    let heldFiles = HeldFiles()
    let allowList: HostAllowList?
    let logger: Logger
    let startedAt = ContinuousClock.now
    /// The port the proxy listens on, once it does.
    let listeningPort = Mutex<Int?>(nil)

    init(store: CacheStore, configuration: CacheProxyConfiguration, group: any EventLoopGroup, logger: Logger) {
        self.store = store
        self.configuration = configuration
        self.logger = logger
        counters = ProxyCounters()
        upstream = Upstream(store: store, configuration: configuration, group: group, counters: counters, logger: logger)
        playlistFetches = PlaylistFetches(upstream: upstream, limit: configuration.limits.maximumPlaylistBytes)
        allowList = HostAllowList(configuration.allowedHosts)
    }
}

extension ProxyContext {
    /// A response could not be stored for lack of room: warns at most once a minute, and makes
    /// idle connections let go of removed files, whose blocks they would keep allocated.
    func noteStoreHasNoRoom() {
        storeRoomWarning.note(logger, freeBytes: store.space.freeBytes)
        heldFiles.releaseRemoved(from: store)
    }
}
