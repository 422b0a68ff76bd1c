/// The `route` label of `sparsecache_requests_total`: what a request asked of the proxy, as its
/// route in ``RouteTable`` declares it, so that refused requests (a bad `url`, an unknown
/// session) count under the route they were meant for.
///
/// The raw values index the proxy's metric handles: a new label goes before ``other``.
public enum RouteLabel: Int, CaseIterable, Sendable {
    /// `/proxy?url=...` (and DASH's path form, `/dash/...`): a player's request through the cache.
    case proxy
    /// A session's playlists and media (`/sessions/ID/index.m3u8`, `/sessions/ID/proxy?url=...`).
    case session
    /// Opening, listing, reading and closing sessions.
    case sessions
    case prefetch
    /// Downloads of whole presentations (`/downloads`, `/downloads/ID`).
    case downloads
    case status
    case metrics
    /// The store's entries and their management (`/entries`, `/entries/pin`, `/entries/unpin`, `/evict`).
    case store
    /// Anything else (the dashboard, and what is not found).
    case other

    /// The label's value, as `/metrics` writes it.
    public var name: String {
        switch self {
        case .proxy: "proxy"
        case .session: "session"
        case .sessions: "sessions"
        case .prefetch: "prefetch"
        case .downloads: "downloads"
        case .status: "status"
        case .metrics: "metrics"
        case .store: "store"
        case .other: "other"
        }
    }

    /// The label of the route `target`'s path names (its query is not parsed).
    public init(target: String) {
        self = RouteTable.traits(forPath: target.utf8).label
    }
}
