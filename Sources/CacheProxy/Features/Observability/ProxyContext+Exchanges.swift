import NIOHTTP1

extension ProxyContext {
    /// Counts and logs a request the asynchronous path answered, once it is over.
    func recordExchange(_ request: HTTPRequestHead, writer: ResponseWriter, started: ContinuousClock.Instant) {
        if let metrics, let status = writer.status {
            metrics.recordResponse(route: RouteLabel(target: request.uri), status: status.code, cache: writer.cache, bodyBytes: writer.bodyBytes)
        }
        accessLog?.append(AccessLogRecord(
            method: request.method, target: request.uri, url: writer.origin, status: writer.status?.code, bodyBytes: writer.bodyBytes, cache: writer.cache?.kind,
            started: started, firstByte: writer.headSentAt, ended: .now, error: writer.failure))
    }
}
