import Logging

/// The start of a graceful shutdown, once the listener is closed: it waits for the responses
/// clients are receiving, and for nothing else. Idle connections close at once (their clients
/// may keep them open for minutes); the proxy's own background work stops at once, keeping what
/// it stored: session buffering, prefetching and downloads. (Fetches left behind by clients
/// that went away end with the last response, when ``CacheProxy/run()`` cancels every fetch.)
/// The log says what the shutdown waits for and what it cancelled.
struct GracefulShutdown {
    let context: ProxyContext
    let grace: Duration
    let logger: Logger

    /// What was stopped at once.
    struct Cancelled: Equatable {
        var sessionFetches = 0
        var sessions = 0
        var prefetchJobs = 0
        var downloads = 0
    }

    func begin() async {
        let connections = await context.connections.drain()
        let cancelled = await cancelBackgroundWork()
        let waiting = "waiting at most \(grace) for \(Self.count(connections.owing, "response")) in flight"
        let closed = "closed \(Self.count(connections.idle, "idle connection"))"
        let stopped = "cancelled \(Self.count(cancelled.sessionFetches, "session fetch", plural: "session fetches")) "
            + "(\(Self.count(cancelled.sessions, "session"))), \(Self.count(cancelled.prefetchJobs, "prefetch job")), "
            + "\(Self.count(cancelled.downloads, "download"))"
        logger.info(
            "shutting down: \(waiting); \(closed); \(stopped)",
            metadata: [
                "waitingFor": "\(connections.owing)", "idleClosed": "\(connections.idle)", "sessionFetchesCancelled": "\(cancelled.sessionFetches)",
                "prefetchJobsCancelled": "\(cancelled.prefetchJobs)", "downloadsCancelled": "\(cancelled.downloads)",
            ])
    }

    /// Cancels the work no client is receiving; what it stored stays in the store.
    private func cancelBackgroundWork() async -> Cancelled {
        var cancelled = Cancelled()
        cancelled.prefetchJobs = context.prefetch.status.jobs.count { $0.state == "queued" || $0.state == "running" }
        cancelled.downloads = context.downloads.all.count { $0.state == "queued" || $0.state == "running" }
        (cancelled.sessions, cancelled.sessionFetches) = await context.sessions.shutdown()
        await context.prefetch.shutdown()
        await context.downloads.shutdown()
        return cancelled
    }

    private static func count(_ number: Int, _ singular: String, plural: String? = nil) -> String {
        "\(number) \(number == 1 ? singular : plural ?? singular + "s")"
    }
}
