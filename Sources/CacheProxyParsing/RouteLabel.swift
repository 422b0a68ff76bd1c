import CacheProxyParsing

/// The `route` label of `sparsecache_requests_total`: what a request asked of the proxy,
/// told from its path alone, so that refused requests (a bad `url`, an unknown session) count
/// under the route they were meant for.
enum RouteLabel: Int, CaseIterable, Sendable {
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
    /// Anything else (404).
    case other

    var name: String {
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

    init(target: String) {
        let path = target.utf8.prefix { $0 != UInt8(ascii: "?") }
        func starts(_ prefix: String) -> Bool { path.starts(with: prefix.utf8) }
        func ends(_ suffix: String) -> Bool { path.reversed().starts(with: suffix.utf8.reversed()) }
        if path.elementsEqual("/proxy".utf8) || starts("/dash/") {
            self = .proxy
        } else if RouteAccess.isSessionResource(path) {
            self = .session
        } else if path.elementsEqual("/sessions".utf8) || starts("/sessions/") {
            self = .sessions
        } else if path.elementsEqual("/prefetch".utf8) {
            self = .prefetch
        } else if path.elementsEqual("/downloads".utf8) || starts("/downloads/") {
            self = .downloads
        } else if path.elementsEqual("/status".utf8) || path.elementsEqual("/debug/status".utf8) {
            self = .status
        } else if path.elementsEqual("/metrics".utf8) {
            self = .metrics
        } else if path.elementsEqual("/entries".utf8) || starts("/entries/") || path.elementsEqual("/evict".utf8) {
            self = .store
        } else {
            self = .other
        }
    }
}
