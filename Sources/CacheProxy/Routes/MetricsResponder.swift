
/// Answers `GET /metrics` with the proxy's metrics in its exporter's format (the Prometheus
/// text format by default), the values the store, lanes and breakers keep read at that moment.
struct MetricsResponder {
    let environment: FetchEnvironment

    func respond(writer: ResponseWriter) async throws {
        guard let metrics = environment.metrics else {
            throw ProxyFailure(status: 404, "metrics are off (serve --metrics on)")
        }
        let store = environment.store
        let exposition = metrics.exposition(ProxyMetrics.Snapshot(
            storeBytes: store.totalBytes, storeMaxBytes: store.maximumSize, storeEntries: store.entries.count,
            evictionsSoFar: store.statistics.evictions,
            waiting: [.express: environment.upstream.express.snapshot.waiting, .segment: environment.upstream.segments.snapshot.waiting],
            breakersOpen: environment.upstream.breakers.openCount, openConnections: environment.counters.snapshot.openConnections))
        var headers = HeaderFields()
        headers.add(name: "Content-Type", value: metrics.contentType)
        headers.add(name: "Content-Length", value: String(exposition.count))
        headers.add(name: "Cache-Control", value: "no-store")
        try await writer.sendComplete(status: .ok, headers: headers, body: writer.allocator.buffer(bytes: exposition))
    }
}
