extension PrefetchStatus.Job {
    /// Where a prefetch job is, as ``PrefetchStatus/Job/state`` and the JSON field `state` give
    /// it (`queued`, `running`, `done`, `failed`, `cancelled` or `stopped`).
    public enum State: StatusState {
        /// `queued`: waiting for one of the places jobs run in (two videos are warmed at a time).
        case queued
        /// `running`: warming its video's head (or waiting while the origin's circuit breaker is
        /// open).
        case running
        /// `done`: its budget is cached (or the whole video was, if shorter).
        case done
        /// `failed`: a fetch failed; ``PrefetchStatus/Job/detail`` says why.
        case failed
        /// `cancelled`: its fetch was cancelled before it ended (the proxy stopping, say).
        case cancelled
        /// `stopped`: it stopped because the cache is near its size limit: prefetching never
        /// evicts what is being watched.
        case stopped
        /// A state this version does not know, with its name (one a newer proxy reports).
        case unknown(String)

        public static let known: [State] = [.queued, .running, .done, .failed, .cancelled, .stopped]

        public var rawValue: String {
            switch self {
            case .queued: "queued"
            case .running: "running"
            case .done: "done"
            case .failed: "failed"
            case .cancelled: "cancelled"
            case .stopped: "stopped"
            case .unknown(let name): name
            }
        }

        /// Whether it ended, for the proxy's own queue (which never holds a state it does not know).
        var isFinished: Bool { self != .queued && self != .running }
    }
}
