public import CacheProxy
import CoreMetrics
import Prometheus

/// The Prometheus text format (version 0.0.4), kept in a registry of the proxy's own by
/// swift-prometheus.
final class PrometheusMetricsExporter: MetricsExporter {
    private let registry = PrometheusCollectorRegistry()
    let factory: any MetricsFactory

    init() {
        factory = PrometheusMetricsFactory(registry: registry)
    }

    func makeCounter(name: String, labels: [(String, String)], help: String) -> any CounterHandler {
        registry.makeCounter(descriptor: Self.descriptor(name, help: help), labels: labels)
    }

    func makeGauge(name: String, labels: [(String, String)], help: String) -> any MeterHandler {
        registry.makeGauge(descriptor: Self.descriptor(name, help: help), labels: labels)
    }

    func makeDurationHistogram(name: String, labels: [(String, String)], help: String, buckets: [Duration]) -> any TimerHandler {
        registry.makeDurationHistogram(descriptor: Self.descriptor(name, help: help), labels: labels, buckets: buckets)
    }

    func emit(into buffer: inout [UInt8]) {
        registry.emit(into: &buffer)
    }

    /// Names are written whole (`sparsecache_cache_hits_total`): the namespace and the unit are
    /// parts of the name a dashboard searches for.
    private static func descriptor(_ name: String, help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }
}

extension MetricsFormat {
    /// The Prometheus text format, on swift-prometheus.
    public static var prometheus: MetricsFormat {
        MetricsFormat(contentType: "text/plain; version=0.0.4; charset=utf-8") { PrometheusMetricsExporter() }
    }
}
