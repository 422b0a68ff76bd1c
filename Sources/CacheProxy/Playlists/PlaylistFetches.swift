import CacheProxyParsing
import Synchronization

/// Fetches of playlists in flight, so that concurrent requests for one playlist (players and
/// their retries ask for a live playlist often) share one origin request.
final class PlaylistFetches: Sendable {
    typealias Result = (head: OriginResponseHead, body: [UInt8], finalURL: String)

    private let inFlight = Mutex<[String: Task<Result, any Error>]>([:])
    private let upstream: Upstream
    private let limit: Int

    init(upstream: Upstream, limit: Int) {
        self.upstream = upstream
        self.limit = limit
    }

    /// Fetches `origin` whole, or joins the fetch of it already in flight.
    func fetch(_ origin: OriginURL, lane: UpstreamLane.Kind = .express) async throws -> Result {
        let (upstream, limit) = (upstream, limit)
        let task = inFlight.withLock { tasks in
            if let task = tasks[origin.string] { return task }
            let task = Task<Result, any Error> {
                let (head, body, finalURL) = try await upstream.fetchWhole(origin, limit: limit, lane: lane)
                return (head, body, finalURL)
            }
            tasks[origin.string] = task
            return task
        }
        defer {
            inFlight.withLock { tasks in
                if tasks[origin.string] == task { tasks[origin.string] = nil }
            }
        }
        return try await task.value
    }
}
