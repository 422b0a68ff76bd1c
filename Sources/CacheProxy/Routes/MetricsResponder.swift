import NIOHTTP1

/// Answers `GET /metrics` with the proxy's metrics in its exporter's format (the Prometheus
/// text format by default), the values the store, lanes and breakers keep read at that moment.
struct MetricsResponder {
    let context: ProxyContext

    func respond(writer: ResponseWriter) async throws {
        guard let metrics = context.metrics else {
            throw ProxyFailure(status: 404, "metrics are off (serve --metrics on)")
        }
        let store = context.store
        let exposition = metrics.exposition(ProxyMetrics.Snapshot(
            storeBytes: store.totalBytes, storeMaxBytes: store.maximumSize, storeEntries: store.entries.count,
            evictionsSoFar: store.statistics.evictions,
            waiting: [.express: context.upstream.express.snapshot.waiting, .segment: context.upstream.segments.snapshot.waiting],
            breakersOpen: context.upstream.breakers.openCount, openConnections: context.counters.snapshot.openConnections))
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: metrics.contentType)
        headers.add(name: "Content-Length", value: String(exposition.count))
        headers.add(name: "Cache-Control", value: "no-store")
        try await writer.sendComplete(status: .ok, headers: headers, body: writer.allocator.buffer(bytes: exposition))
    }
}
