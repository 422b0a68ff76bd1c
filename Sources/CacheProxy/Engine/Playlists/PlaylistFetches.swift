import CacheProxyParsing
import CacheStore
import Synchronization

/// Fetches of playlists in flight, so that concurrent requests for one playlist (players and
/// their retries ask for a live playlist often) share one origin request.
///
/// It also remembers the URL a redirected playlist came from, so that a cached copy's relative
/// URIs resolve against it as the fetched one's did. In memory only: after a restart a cached
/// copy resolves against the URL that was requested.
final class PlaylistFetches: Sendable {
    typealias Result = (head: OriginResponseHead, body: [UInt8], finalURL: String)

    private let inFlight = Mutex<[SharedFetch: Task<Result, any Error>]>([:])
    /// What a fetch in flight is shared by: its URL and the fields asked for it.
    private struct SharedFetch: Hashable {
        var url: String
        var headers: OriginHeaderFields
    }
    private let finalURLs = Mutex<[String: String]>([:])
    /// Redirected playlists remembered at most; past it they are forgotten and start over.
    private static let rememberedRedirects = 4096
    private let upstream: Upstream
    private let limit: Int

    init(upstream: Upstream, limit: Int) {
        self.upstream = upstream
        self.limit = limit
    }

    /// Fetches `origin` whole, or joins the fetch of it already in flight (which becomes as
    /// urgent as this caller, when it was less). Only fetches asked with the same `headers`
    /// are shared: another session's credentials may get another answer.
    func fetch(
        _ origin: OriginURL, lane: UpstreamLane.Kind = .express, urgency: FetchUrgency, headers: OriginHeaderFields = OriginHeaderFields()
    ) async throws -> Result {
        let (upstream, limit) = (upstream, limit)
        let shared = SharedFetch(url: origin.string, headers: headers)
        let (task, joined) = inFlight.withLock { tasks in
            if let task = tasks[shared] { return (task, true) }
            let task = Task<Result, any Error> {
                let (head, body, finalURL) = try await upstream.fetchWhole(origin, limit: limit, lane: lane, urgency: urgency, headers: headers)
                return (head, body, finalURL)
            }
            tasks[shared] = task
            return (task, false)
        }
        if joined { upstream.scheduler.raise(key: origin.string, range: nil, to: urgency) }
        defer {
            inFlight.withLock { tasks in
                if tasks[shared] == task { tasks[shared] = nil }
            }
        }
        let result = try await task.value
        remember(result, of: origin)
        return result
    }

    /// Asks the origin whether a cached copy with `validators` is still current, in the
    /// background (``FetchUrgency/deep``). Not shared with players' fetches: a `304` answers
    /// only a conditional request.
    ///
    /// - Returns: the answer; a `304`'s body is empty.
    func revalidate(_ origin: OriginURL, validators: EntryMetadata, headers: OriginHeaderFields) async throws -> Result {
        let (head, body, finalURL) = try await upstream.fetchWhole(origin, limit: limit, urgency: .deep, validators: validators, headers: headers)
        let result = (head: head, body: body, finalURL: finalURL)
        remember(result, of: origin)
        return result
    }

    private func remember(_ result: Result, of origin: OriginURL) {
        guard result.finalURL != origin.string else { return }
        finalURLs.withLock { urls in
            if urls.count >= Self.rememberedRedirects { urls.removeAll() }
            urls[origin.string] = result.finalURL
        }
    }

    /// The URL `origin`'s playlist was last fetched from after redirects: the base its relative
    /// URIs resolve against.
    func finalURL(of origin: OriginURL) -> String {
        finalURLs.withLock { $0[origin.string] } ?? origin.string
    }
}
