public import CoreMetrics

/// Where the proxy's metrics are kept and how `GET /metrics` writes them: the proxy records
/// through swift-metrics handlers this makes, and asks it for the text at each scrape.
///
/// One exporter belongs to one proxy (its series start at zero with it). The Prometheus text
/// format on swift-prometheus is ``MetricsFormat/prometheus``.
public protocol MetricsExporter: Sendable {
    /// The factory the handlers belong to (swift-metrics' types carry it).
    var factory: any MetricsFactory { get }
    func makeCounter(name: String, labels: [(String, String)], help: String) -> any CounterHandler
    func makeGauge(name: String, labels: [(String, String)], help: String) -> any MeterHandler
    /// A histogram of durations with these bucket upper bounds.
    func makeDurationHistogram(name: String, labels: [(String, String)], help: String, buckets: [Duration]) -> any TimerHandler
    /// Every series, in the format `GET /metrics` answers with.
    func emit(into buffer: inout [UInt8])
}

/// Which ``MetricsExporter`` a proxy makes when it starts, and the media type of its text
/// (``CacheProxyConfiguration/metricsFormat``).
public struct MetricsFormat: Sendable {
    /// The `Content-Type` of `GET /metrics`.
    public let contentType: String
    private let make: @Sendable () -> any MetricsExporter

    public init(contentType: String, make: @escaping @Sendable () -> any MetricsExporter) {
        self.contentType = contentType
        self.make = make
    }

    func makeExporter() -> any MetricsExporter { make() }
}
