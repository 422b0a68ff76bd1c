import Logging

/// The start of a graceful shutdown, once the listener is closed: it waits for the responses
/// clients are receiving, and for nothing else. Idle connections close at once (their clients
/// may keep them open for minutes); the proxy's own background work stops at once, keeping what
/// it stored: session buffering, prefetching, downloads, playlist revalidations, and the
/// fetches whose clients went away (an orphaned fetch would otherwise go on while another
/// client's response drains), at the signal and whenever a client leaves during the drain.
/// A fetch that a client is receiving goes on. The log says what the shutdown waits for and
/// what it cancelled.
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
        /// Fetches no client was receiving: orphaned by their clients, or revalidations.
        var unreceivedFetches = 0
    }

    func begin() async {
        let connections = await context.connections.drain()
        let cancelled = await cancelBackgroundWork()
        let waiting = "waiting at most \(grace) for \(Self.count(connections.owing, "response")) in flight"
        let closed = "closed \(Self.count(connections.idle, "idle connection"))"
        let stopped = "cancelled \(Self.count(cancelled.sessionFetches, "session fetch", plural: "session fetches")) "
            + "(\(Self.count(cancelled.sessions, "session"))), \(Self.count(cancelled.prefetchJobs, "prefetch job")), "
            + "\(Self.count(cancelled.downloads, "download")), "
            + "\(Self.count(cancelled.unreceivedFetches, "fetch no client was receiving", plural: "fetches no client was receiving"))"
        logger.info(
            "shutting down: \(waiting); \(closed); \(stopped)",
            metadata: [
                "waitingFor": "\(connections.owing)", "idleClosed": "\(connections.idle)", "sessionFetchesCancelled": "\(cancelled.sessionFetches)",
                "prefetchJobsCancelled": "\(cancelled.prefetchJobs)", "downloadsCancelled": "\(cancelled.downloads)",
                "unreceivedFetchesCancelled": "\(cancelled.unreceivedFetches)",
            ])
    }

    /// Cancels the work no client is receiving; what it stored stays in the store.
    private func cancelBackgroundWork() async -> Cancelled {
        var cancelled = Cancelled()
        let logger = logger
        cancelled.unreceivedFetches = context.fetching.fetches.cancelUnreceived { count in
            logger.info("shutting down: cancelled \(Self.count(count, "fetch", plural: "fetches")) whose clients left during the drain")
        }
        cancelled.prefetchJobs = context.prefetch.status.jobs.count { !$0.state.isFinished }
        cancelled.downloads = context.downloads.all.count { !$0.state.isFinished }
        (cancelled.sessions, cancelled.sessionFetches) = await context.sessions.shutdown()
        await context.prefetch.shutdown()
        await context.downloads.shutdown()
        return cancelled
    }

    private static func count(_ number: Int, _ singular: String, plural: String? = nil) -> String {
        "\(number) \(number == 1 ? singular : plural ?? singular + "s")"
    }
}
