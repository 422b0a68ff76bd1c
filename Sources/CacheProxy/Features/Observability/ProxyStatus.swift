/// What `GET /status` reports, as a value (``CacheProxy/status``) and as JSON.
public struct ProxyStatus: Sendable, Codable, Hashable {
    /// The store: size, limit, entries, and its persistent counters.
    public struct Cache: Sendable, Codable, Hashable {
        public var directory: String
        public var sizeBytes: UInt64
        public var limitBytes: UInt64
        public var entries: Int
        public var hits: UInt64
        public var misses: UInt64
        public var bytesFromCache: UInt64
        public var bytesFromOrigin: UInt64
        public var evictions: UInt64
    }

    /// The store's volume: what a full disk looks like from outside.
    public struct Store: Sendable, Codable, Hashable {
        /// Whether the last write that needed room found none, even after evicting: responses
        /// then pass through uncached until space is free.
        public var diskFull: Bool
        /// Free bytes on the volume, measured now (null when the volume cannot say).
        @EncodedAsNull public var freeBytes: UInt64?
        /// The free space the store keeps on its volume, evicting whatever its size limit says.
        public var minimumFreeBytes: UInt64
    }

    /// One upstream lane right now.
    public struct Lane: Sendable, Codable, Hashable {
        public var capacity: Int
        public var active: Int
        public var waiting: Int
        public var completed: UInt64
    }

    /// The proxy's traffic since it started.
    public struct Traffic: Sendable, Codable, Hashable {
        public var requests: UInt64
        public var openConnections: Int
        public var bytesServed: UInt64
        public var upstreamRequests: UInt64
        public var bytesFetched: UInt64
        /// Responses cut short because the origin failed mid-body.
        public var brokenResponses: UInt64
        /// Fetches whose origin answered a Range request with the whole body.
        public var originsIgnoringRange: UInt64
        /// Live playlists served from cache because the origin was unreachable.
        public var stalePlaylistsServed: UInt64
        /// Cache hits answered straight from the request's bytes, before the HTTP decoder (the
        /// plain requests players send, when no earlier request of the connection is pending).
        public var hitsFromRawRequests: UInt64
        /// Hits of up to 256 KiB sent with `sendfile` because it was chosen over a copy from the
        /// file's mapping: what the proxy judged copies to cost on this machine (one such hit in
        /// 64 is a probe of the way not preferred, so a share near 1/64 means copies were cheaper).
        public var sendfileChosenHits: UInt64
        /// Hits whose body was written from the cache file's mapping
        /// (``CacheProxyConfiguration/mappedFiles``); the others were sent with `sendfile` or
        /// read into memory first.
        public var mappedHits: UInt64
        /// Bytes sent from the origin to clients without being stored, because the store had no
        /// room for them (a full disk).
        public var bytesPassedThrough: UInt64
        /// Reads of cached bytes that were not in memory (their pages had left the page cache),
        /// made on the cold-read threads instead of an event loop and checked against their
        /// checksums again (``CacheProxyConfiguration/coldReadThreads``).
        public var coldReads: UInt64
        /// The bytes of those reads.
        public var bytesReadCold: UInt64
        /// Times an origin transfer stopped reading because a more urgent one needed the link
        /// (a prefetch while a video starts, say); each went on from where it stopped.
        public var transfersPaused: UInt64
        /// Transfers whose client went away, cut because a more urgent one needed the link.
        public var orphansCut: UInt64
        /// Prefetch, buffering and download transfers cut (not paused) because a player waited
        /// to start; each fetched what it lacked at its next turn.
        public var transfersCutForAStart: UInt64
        /// Client connections closed because their client stopped reading for
        /// ``CacheProxyConfiguration/Timeouts/clientWriteStall`` (the response they held up was dropped).
        public var stalledClientsDropped: UInt64
        /// Multivariant playlists served from the cache without asking the origin first.
        public var playlistsServedWithoutOrigin: UInt64
        /// Background revalidations of cached multivariant playlists, and how many of them the
        /// origin answered `304 Not Modified`.
        public var playlistRevalidations: UInt64
        public var playlistsNotModified: UInt64
    }

    public var version: String
    public var port: Int
    public var uptimeSeconds: Double
    public var cache: Cache
    public var store: Store
    public var express: Lane
    public var segment: Lane
    public var traffic: Traffic
    /// Origins whose circuit breaker is open or half-open, or closed with failures counted, by
    /// authority.
    public var breakers: [String: BreakerState]
    /// The prefetch queue.
    public var prefetch: PrefetchStatus
    /// Open playback sessions, then the last closed ones.
    public var sessions: [PlaybackSessionStatus]
}
