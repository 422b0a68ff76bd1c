import CacheProxyParsing

extension ProxyContext {
    /// Counts (under its route's `label`) and logs a request the asynchronous path answered,
    /// once it is over.
    func recordExchange(_ request: RequestHead, label: RouteLabel, writer: ResponseWriter, started: ContinuousClock.Instant) {
        if let metrics, let status = writer.status {
            metrics.recordResponse(route: label, status: status.code, cache: writer.cache, bodyBytes: writer.bodyBytes)
        }
        hits.accessLog?.append(AccessLogRecord(
            method: request.method, target: request.uri, url: writer.origin, status: writer.status?.code, bodyBytes: writer.bodyBytes, cache: writer.cache?.kind,
            started: started, firstByte: writer.headSentAt, ended: .now, error: writer.failure))
    }
}
