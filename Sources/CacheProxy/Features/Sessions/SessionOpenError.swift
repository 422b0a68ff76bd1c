import CacheProxyParsing

/// Why a playback session could not be opened, in the engine's terms. Nothing here is HTTP:
/// the routes choose the status (`ProxyFailure.init(_: SessionOpenError)`), the Swift API the
/// ``CacheProxyError`` code (`CacheProxyError.init(_: SessionOpenError)`).
enum SessionOpenError: Error, Sendable, CustomStringConvertible {
    /// A field of the request asks for what cannot be played; `field` is its name (`url`,
    /// `urls[1]`, `quality`).
    case invalidField(_ field: String, _ message: String)
    /// A URL's host is off the proxy's allow-list.
    case notAllowed(host: String)
    /// The playlist (or MPD) `field` names could not be loaded.
    case loadFailed(field: String, origin: OriginURL, PlaylistLoadError)
    #if DASH
    /// The session's address cannot carry DASH's path form (its base has a path).
    case cannotServeDASH(base: String)
    #endif
    /// ``CacheProxyConfiguration/Limits/maximumOpenSessions`` sessions are open and playing.
    case tooManySessions(limit: Int)
    /// The proxy is shutting down.
    case shuttingDown

    var message: String {
        switch self {
        case .invalidField(_, let message): message
        case .notAllowed(let host): "\(host) is not on the proxy's allow-list"
        case .loadFailed(let field, let origin, .interrupted): "\"\(field)\": \(origin) could not be loaded"
        case .loadFailed(let field, _, let error): "\"\(field)\": \(error.message)"
        #if DASH
        case .cannotServeDASH(let base): "the session's address \(base) cannot serve DASH"
        #endif
        case .tooManySessions(let limit):
            "\(limit) sessions are open and playing: close one (DELETE /sessions/ID); one left idle for its idleTimeout makes room"
        case .shuttingDown: "the proxy is shutting down"
        }
    }

    var description: String { message }
}
