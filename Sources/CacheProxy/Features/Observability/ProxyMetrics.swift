import CacheProxyParsing
import CoreMetrics
import Synchronization

/// The proxy's metrics, recorded through swift-metrics into the handlers of its
/// ``MetricsExporter`` (which writes the text `GET /metrics` serves).
///
/// Every time series is made when the proxy starts, so that recording is an atomic add on a
/// handler found by index: no lock and no allocation, which the cache-hit path on the event
/// loop depends on. Values the store and the lanes keep anyway (sizes, entries, evictions,
/// waiting fetches, open breakers) are read when the metrics are scraped, not recorded.
final class ProxyMetrics: Sendable {
    private let exporter: any MetricsExporter
    /// The `Content-Type` of the exposition.
    let contentType: String

    /// By route, then by status class (1xx to 5xx).
    private let requests: [[CoreMetrics.Counter]]
    private let cacheHits: CoreMetrics.Counter
    private let cacheMisses: CoreMetrics.Counter
    private let bytesFromCache: CoreMetrics.Counter
    private let bytesFromOrigin: CoreMetrics.Counter
    private let upstreamRequests: [UpstreamLane.Kind: CoreMetrics.Counter]
    private let upstreamSeconds: [UpstreamLane.Kind: CoreMetrics.Timer]
    private let prefetchBytes: CoreMetrics.Counter
    private let coldReadBytes: CoreMetrics.Counter
    private let evictions: CoreMetrics.Counter
    private let storeBytes: CoreMetrics.Meter
    private let storeMaxBytes: CoreMetrics.Meter
    private let storeEntries: CoreMetrics.Meter
    private let laneWaiting: [UpstreamLane.Kind: CoreMetrics.Meter]
    private let breakersOpen: CoreMetrics.Meter
    private let openConnections: CoreMetrics.Meter
    /// The store's eviction count last added to ``evictions`` (the store counts across restarts,
    /// the counter from the proxy's start).
    private let evictionsSeen: Mutex<UInt64>

    /// The upper bounds of the `sparsecache_upstream_seconds` buckets: origins answer in
    /// milliseconds to seconds, and give up at the response-head timeout (15 s by default).
    static let upstreamBuckets: [Duration] = [
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
        .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10), .seconds(15),
    ]

    init(format: MetricsFormat, evictionsSoFar: UInt64) {
        let exporter = format.makeExporter()
        self.exporter = exporter
        contentType = format.contentType
        let factory = exporter.factory
        func counter(_ metric: String, _ labels: [(String, String)] = [], help: String) -> CoreMetrics.Counter {
            CoreMetrics.Counter(label: metric, dimensions: labels,
                                handler: exporter.makeCounter(name: metric, labels: labels, help: help), factory: factory)
        }
        func gauge(_ metric: String, _ labels: [(String, String)] = [], help: String) -> CoreMetrics.Meter {
            CoreMetrics.Meter(label: metric, dimensions: labels,
                              handler: exporter.makeGauge(name: metric, labels: labels, help: help), factory: factory)
        }
        func byLane<Metric>(_ make: ([(String, String)]) -> Metric) -> [UpstreamLane.Kind: Metric] {
            [.express: make([("lane", UpstreamLane.Kind.express.rawValue)]), .segment: make([("lane", UpstreamLane.Kind.segment.rawValue)])]
        }
        requests = RouteLabel.allCases.map { route in
            (1...5).map { statusClass in
                counter("sparsecache_requests_total", [("route", route.name), ("status", "\(statusClass)xx")],
                        help: "Requests answered, by route and status class.")
            }
        }
        cacheHits = counter("sparsecache_cache_hits_total", help: "Responses served entirely from the cache.")
        cacheMisses = counter("sparsecache_cache_misses_total",
                              help: "Responses that needed bytes from the origin: misses and partial hits.")
        let bytesHelp = "Body bytes of media and playlist responses, by where they were when the response started: in the cache, or at the origin."
        bytesFromCache = counter("sparsecache_bytes_served_total", [("source", "cache")], help: bytesHelp)
        bytesFromOrigin = counter("sparsecache_bytes_served_total", [("source", "origin")], help: bytesHelp)
        upstreamRequests = byLane { counter("sparsecache_upstream_requests_total", $0, help: "Requests sent to origins, by lane.") }
        upstreamSeconds = byLane { labels in
            CoreMetrics.Timer(label: "sparsecache_upstream_seconds", dimensions: labels, handler: exporter.makeDurationHistogram(
                name: "sparsecache_upstream_seconds", labels: labels,
                help: "Time from sending a request to an origin to its response head, by lane.", buckets: Self.upstreamBuckets), factory: factory)
        }
        prefetchBytes = counter("sparsecache_prefetch_bytes_total", help: "Bytes fetched from origins by prefetching.")
        coldReadBytes = counter("sparsecache_cold_read_bytes_total",
                                help: "Cached bytes read from the disk on the cold-read threads because their pages had left memory.")
        evictions = counter("sparsecache_evictions_total",
                            help: "Entries removed from the cache to make room or because they expired, since the proxy started.")
        storeBytes = gauge("sparsecache_store_bytes", help: "Disk space the cache's entries take, in bytes.")
        storeMaxBytes = gauge("sparsecache_store_max_bytes", help: "The cache's size limit, in bytes.")
        storeEntries = gauge("sparsecache_store_entries", help: "Entries in the cache.")
        laneWaiting = byLane { gauge("sparsecache_lane_waiting", $0, help: "Origin fetches waiting for a place in their lane.") }
        breakersOpen = gauge("sparsecache_breakers_open", help: "Origins whose circuit breaker is open.")
        openConnections = gauge("sparsecache_open_connections", help: "Client connections open now.")
        evictionsSeen = Mutex(evictionsSoFar)
    }

    /// A response was answered with `status`; `cache` says how it used the cache (nil for
    /// routes that serve no origin resource) and `bodyBytes` what its body held.
    func recordResponse(route: RouteLabel, status: UInt, cache: CacheOutcome?, bodyBytes: UInt64) {
        let statusClass = min(max(Int(status / 100), 1), 5) - 1
        requests[route.rawValue][statusClass].increment()
        guard let cache else { return }
        switch cache.kind {
        case .hit:
            cacheHits.increment()
            bytesFromCache.increment(by: Int64(clamping: bodyBytes))
        case .partial:
            cacheMisses.increment()
            let cached = min(cache.cachedBytes, bodyBytes)
            bytesFromCache.increment(by: Int64(clamping: cached))
            bytesFromOrigin.increment(by: Int64(clamping: bodyBytes - cached))
        case .miss:
            cacheMisses.increment()
            bytesFromOrigin.increment(by: Int64(clamping: bodyBytes))
        case .pass:
            bytesFromOrigin.increment(by: Int64(clamping: bodyBytes))
        }
    }

    /// A request went to an origin on `lane`.
    func recordUpstreamRequest(lane: UpstreamLane.Kind) {
        upstreamRequests[lane]?.increment()
    }

    /// An origin answered a request of `lane` with its response head after `elapsed`.
    func recordUpstreamResponse(lane: UpstreamLane.Kind, after elapsed: Duration) {
        upstreamSeconds[lane]?.recordNanoseconds(Self.nanoseconds(elapsed))
    }

    func recordPrefetched(_ bytes: UInt64) {
        prefetchBytes.increment(by: Int64(clamping: bytes))
    }

    func recordColdRead(_ bytes: UInt64) {
        coldReadBytes.increment(by: Int64(clamping: bytes))
    }

    /// What the store, the lanes, the breakers and the connections say now, read for a scrape.
    struct Snapshot {
        var storeBytes: UInt64
        var storeMaxBytes: UInt64
        var storeEntries: Int
        var evictionsSoFar: UInt64
        var waiting: [UpstreamLane.Kind: Int]
        var breakersOpen: Int
        var openConnections: Int
    }

    /// The text format of every metric, with the values read at scrape time set from `snapshot`.
    func exposition(_ snapshot: Snapshot) -> [UInt8] {
        storeBytes.set(Int64(clamping: snapshot.storeBytes))
        storeMaxBytes.set(Int64(clamping: snapshot.storeMaxBytes))
        storeEntries.set(snapshot.storeEntries)
        for (lane, gauge) in laneWaiting { gauge.set(snapshot.waiting[lane] ?? 0) }
        breakersOpen.set(snapshot.breakersOpen)
        openConnections.set(snapshot.openConnections)
        let newEvictions = evictionsSeen.withLock { seen -> UInt64 in
            defer { seen = max(seen, snapshot.evictionsSoFar) }
            return snapshot.evictionsSoFar > seen ? snapshot.evictionsSoFar - seen : 0
        }
        if newEvictions > 0 { evictions.increment(by: Int64(clamping: newEvictions)) }
        var buffer: [UInt8] = []
        exporter.emit(into: &buffer)
        return buffer
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? Int64.max : whole &+ attoseconds / 1_000_000_000
    }
}
