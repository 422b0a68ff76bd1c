public import CacheProxyParsing
import NIOCore

/// How a ``CacheProxy`` listens, whom it fetches from, and what it tolerates.
///
/// Every value has a default fit for a player on the same machine; ``init()`` gives them all.
public struct CacheProxyConfiguration: Sendable {
    /// The address to listen on. Default `127.0.0.1`. Anything but a loopback address needs
    /// ``allowsNonLoopback`` (the proxy fetches any URL it is given, so exposing it is a choice).
    public var host: String
    /// The port to listen on; 0 picks a free one (see ``CacheProxy/port``). Default 9000.
    public var port: Int
    /// Whether ``host`` may be an address other than loopback. Default false.
    public var allowsNonLoopback: Bool
    /// The origins the proxy may fetch from, as host names (`cdn.example.com`) or suffix patterns
    /// (`*.example.com`, which also matches `example.com`). nil allows every http(s) origin.
    public var allowedHosts: [String]?
    /// Header fields for origin requests, per origin: host patterns as in ``allowedHosts``
    /// (`cdn.example.com`, `*.example.com`) to the fields every request to a matching host
    /// carries (a bearer token, a signed cookie). Fields a session, prefetch or download request
    /// or a player gives win over these by name (Docs/PROXY.md, "Credentials", has the order);
    /// ``CacheProxy/setOriginHeaders(_:)`` replaces them while the proxy runs. Values are never
    /// logged or reported. Default none.
    public var originHeaders: [String: OriginHeaderFields] = [:]
    /// Names of a player's request header fields that are forwarded to the origin with the
    /// requests made for it (`Cookie`, `Authorization`, `Referer`, `User-Agent`). Names in
    /// ``OriginHeaderFields/refusedNames`` are never forwarded. Default none.
    public var forwardedHeaders: [String] = []
    /// Whether responses marked `Cache-Control: no-store` are stored anyway, for apps that own
    /// their CDN and know its bytes are the same for every user. Default false: they are passed
    /// to the player and not stored.
    public var storesNoStoreResponses = false
    /// How many segment fetches may run at once; more wait. Default 32.
    public var segmentConcurrency: Int
    /// How many express fetches (playlists, init segments, keys, probes) may run at once. They
    /// never wait behind segments. Default 16.
    public var expressConcurrency: Int
    /// A request for at most this many bytes is a probe and takes the express lane. Default 16 KiB.
    public var expressProbeLimit: UInt64
    /// Limits on untrusted input.
    public var limits: Limits
    /// Timeouts towards clients and origins.
    public var timeouts: Timeouts
    /// The HTTP client the proxy fetches from origins with, one per lane: `.urlSession`
    /// (`CacheProxyURLSession`, in this product: the system's HTTP and TLS on Apple platforms) or
    /// `.asyncHTTPClient` (the `CacheProxyServer` product, which the CLI uses; it checks where
    /// every connection leads, which a proxy listening beyond loopback needs). No default: which
    /// HTTP stack an app links is the app's choice, and this module links none; a proxy made
    /// without one throws `CacheProxyError.Code.invalidConfiguration`.
    public var originClient: OriginClientKind?
    /// When to stop asking an unreachable origin, and when to try again.
    public var breaker: CircuitBreakerConfiguration
    /// The largest piece of a body read from the cache and written to a client at once; a
    /// connection holds at most about this much memory. Default 256 KiB.
    public var responseChunkSize: Int
    /// How much of the cache hits may be written from memory (read-only mappings of the cache
    /// files) rather than sent with `sendfile`: on loopback the faster way.
    public var mappedFiles = MappedFiles()
    /// The send buffer (`SO_SNDBUF`) of a connection whose client is on the same machine, in
    /// bytes; nil leaves it to the kernel, which grows it up to megabytes. A buffer this size
    /// holds only what the player reads next, so the bytes the proxy copies into the socket
    /// are still in the CPU's caches when it reads them: whole segments cost the proxy and the
    /// player less than with a grown buffer (Docs/BENCHMARKS.md, "A smaller send buffer for
    /// players on the same machine"). Linux doubles the value. Clients on other machines keep
    /// the kernel's buffer, which a network's round trips need. Default 256 KiB.
    public var loopbackSendBuffer: Int?
    /// Threads that read cached bytes which are not in memory (their pages left the page cache),
    /// so that an event loop never waits for the disk while its other connections wait for it.
    /// Bytes read back from the disk are checked against their checksums again. 0 reads them on
    /// the event loops, as any other read (where the cache is on a RAM disk, say). Default 2.
    public var coldReadThreads: Int
    /// When a client goes away, a fetch it started is completed anyway when at most this many
    /// bytes are left and no other fetch needs the link (finishing a segment is cheaper than
    /// fetching it again later), and stopped otherwise: on a phone's link the next video's
    /// start must not queue behind the last one's segment. Default 8 MiB.
    public var orphanFetchLimit: UInt64
    /// How long a cached multivariant playlist counts as fresh when its origin gives no usable
    /// `Cache-Control: max-age`. Multivariant playlists are always served from the cache once
    /// cached (a cached video must start without a round trip); a stale one is revalidated in
    /// the background, and the next request gets the result. Default 10 minutes.
    public var playlistFreshness: Duration
    /// Event loop threads. Default: the number of cores.
    public var threads: Int
    /// The base of every URL the proxy writes into playlists and session answers, as players
    /// reach it: `https://video.example.com` for a proxy behind a front, `http://192.168.1.20:9000`
    /// on a LAN. An http(s) URL, optionally with a path; no query. Requests may name its host in
    /// `Host`. Default nil: a proxy on a loopback address uses that address and its port; one on
    /// another address uses the request's `Host` header when it is a valid host and port, and its
    /// own address otherwise.
    public var publicURL: String?
    /// Who may use the proxy: the names requests may reach it by, the web origins allowed
    /// across sites, the control token. The defaults keep every web page out.
    public var security = Security()
    /// Whether the proxy keeps metrics and serves them at `GET /metrics`. Default true.
    public var recordsMetrics: Bool
    /// The format `GET /metrics` writes, with the exporter that keeps the series; nil keeps
    /// no metrics and `GET /metrics` is not found. Default nil: this module links no exporter;
    /// `.prometheus` is in the `CacheProxyServer` product (the CLI's default).
    public var metricsFormat: MetricsFormat?
    /// Whether every request is logged at `info`, one `key=value` line (method, origin URL,
    /// status, bytes, cache outcome, time to first byte, total time), written off the event
    /// loop. Default true.
    public var writesAccessLog: Bool
    /// How long a graceful shutdown (a `ServiceGroup`'s, on SIGTERM) lets responses in flight
    /// finish once the proxy stopped accepting connections; the connections still open then are
    /// closed. Default 10 s.
    public var shutdownGracePeriod: Duration

    public init() {
        host = "127.0.0.1"
        port = 9000
        allowsNonLoopback = false
        allowedHosts = nil
        segmentConcurrency = 32
        expressConcurrency = 16
        expressProbeLimit = 16 * 1024
        limits = Limits()
        timeouts = Timeouts()
        breaker = CircuitBreakerConfiguration()
        responseChunkSize = 256 * 1024
        loopbackSendBuffer = 256 * 1024
        coldReadThreads = 2
        orphanFetchLimit = 8 << 20
        playlistFreshness = .seconds(600)
        threads = System.coreCount
        publicURL = nil
        recordsMetrics = true
        writesAccessLog = true
        shutdownGracePeriod = .seconds(10)
    }

    /// Limits on untrusted input, from clients and from origins.
    /// Cache files mapped into memory for hits (see ``CacheProxyConfiguration/mappedFiles``).
    /// The mapped pages are the page cache's: they count in the process's resident size
    /// (`RssFile`), not in its own memory, and the kernel may reclaim them.
    public struct MappedFiles: Sendable {
        /// The resident bytes the mappings may bring into the process together (counted as
        /// the bytes written from each since it was made, at most its length); past it the
        /// least recently used are unmapped. A response larger than a quarter of it is sent with
        /// `sendfile`. 0 maps nothing (every hit uses `sendfile`). Default 32 MiB.
        public var limit = 32 << 20
        /// How often mappings no hit used since the last look are unmapped (once the responses
        /// written from them are sent), so that the pages of files no longer served leave the
        /// process's resident set. Default 1 second.
        public var idleRelease: Duration = .seconds(1)

        public init() {}
    }

    public struct Limits: Sendable {
        /// The request target (`/proxy?url=...`). Default 16 KiB target, 8 KiB URL.
        public var requestTarget: RequestTargetLimits
        /// The largest request header section (names and values, the request line included).
        /// Larger requests get 400 and the connection is closed. Default 32 KiB.
        public var maximumHeaderBytes: Int
        /// The most header fields in one request. Default 100.
        public var maximumHeaderCount: Int
        /// The `Range` header.
        public var range: RangeRequestLimits
        /// The largest playlist the proxy fetches and rewrites; larger ones fail with 502.
        /// Default 16 MiB (a day of LL-HLS is a few MB).
        public var maximumPlaylistBytes: Int
        /// What one `POST /prefetch` may ask for.
        public var prefetch: PrefetchRequest.Limits = PrefetchRequest.Limits()
        /// What one `POST /sessions` may ask for.
        public var sessions: PlaybackSessionRequest.Limits = PlaybackSessionRequest.Limits()
        /// The most playback sessions open at once; more get 429 until one closes or idles out.
        /// Default 256.
        public var maximumOpenSessions = 256

        public init(
            requestTarget: RequestTargetLimits = RequestTargetLimits(), maximumHeaderBytes: Int = 32 * 1024,
            maximumHeaderCount: Int = 100, range: RangeRequestLimits = RangeRequestLimits(),
            maximumPlaylistBytes: Int = 16 << 20
        ) {
            self.requestTarget = requestTarget
            self.maximumHeaderBytes = maximumHeaderBytes
            self.maximumHeaderCount = maximumHeaderCount
            self.range = range
            self.maximumPlaylistBytes = maximumPlaylistBytes
        }
    }

    /// Timeouts towards clients and origins.
    public struct Timeouts: Sendable {
        /// How long a connection may take to send a complete request head, counted from the
        /// connection's start or the end of its previous response (so it is also the keep-alive
        /// idle timeout). Stops slow-header clients. Default 30 s.
        public var requestHead: Duration
        /// How long a response may wait for a client that does not read. Default 30 s.
        public var clientWriteStall: Duration
        /// Connecting to an origin. Default 5 s.
        public var originConnect: Duration
        /// From sending a request to an origin to its response head. Default 15 s.
        public var originResponseHead: Duration
        /// The longest pause between two reads of an origin's body. Default 15 s.
        public var originRead: Duration

        public init(
            requestHead: Duration = .seconds(30), clientWriteStall: Duration = .seconds(30),
            originConnect: Duration = .seconds(5), originResponseHead: Duration = .seconds(15),
            originRead: Duration = .seconds(15)
        ) {
            self.requestHead = requestHead
            self.clientWriteStall = clientWriteStall
            self.originConnect = originConnect
            self.originResponseHead = originResponseHead
            self.originRead = originRead
        }
    }
}

extension CacheProxyConfiguration {
    /// The origin client, which has no default (see ``originClient``).
    func chosenOriginClient() throws(CacheProxyError) -> OriginClientKind {
        guard let originClient else {
            throw CacheProxyError(.invalidConfiguration, """
                the configuration names no origin client: set originClient to .urlSession (import CacheProxyURLSession) \
                or .asyncHTTPClient (import CacheProxyServer)
                """)
        }
        return originClient
    }
}
