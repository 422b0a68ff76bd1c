extension DownloadStatus {
    /// Where a download is, as ``DownloadStatus/state`` and the JSON field `state` give it
    /// (`queued`, `running`, `done`, `failed` or `cancelled`).
    public enum State: StatusState {
        /// `queued`: waiting for one of the places downloads run in (a few run at once).
        case queued
        /// `running`: fetching; its progress grows.
        case running
        /// `done`: everything the presentation (or the file) needs is in the cache.
        case done
        /// `failed`: it ended before everything was fetched; ``DownloadStatus/error`` says why.
        /// What it stored stays, and a new download of the URL fetches only the rest.
        case failed
        /// `cancelled`: cancelled (`DELETE /downloads/ID`, ``CacheProxy/cancelDownload(_:)``)
        /// before it ended; what it stored stays.
        case cancelled
        /// A state this version does not know, with its name (one a newer proxy reports).
        case unknown(String)

        public static let known: [State] = [.queued, .running, .done, .failed, .cancelled]

        public var rawValue: String {
            switch self {
            case .queued: "queued"
            case .running: "running"
            case .done: "done"
            case .failed: "failed"
            case .cancelled: "cancelled"
            case .unknown(let name): name
            }
        }

        /// Whether it ended, for the proxy's own queue (which never holds a state it does not know).
        var isFinished: Bool { self != .queued && self != .running }
    }
}
