/// The prefetch queue, as `POST /prefetch`, `GET /prefetch` and `GET /status` report it.
public struct PrefetchStatus: Sendable, Codable, Hashable {
    /// One video of the feed.
    public struct Job: Sendable, Codable, Hashable {
        /// `queued`, `running`, `done`, `failed`, `cancelled` or `stopped` (the cache is near its
        /// size limit).
        public var state: State
        public var url: String
        /// Bytes fetched from the origin for this video (what was already cached costs nothing).
        public var bytesFetched: UInt64
        /// The budget, e.g. `6 seconds`, `3 segments`, `2000000 bytes`.
        public var budget: String
        /// Why a job failed or stopped, or what it left out (a live playlist's segments).
        public var detail: String?
    }

    public var queued: Int
    public var running: Int
    public var finished: Int
    public var bytesFetched: UInt64
    /// The jobs in feed order (the last 200 at most).
    public var jobs: [Job]
}
