/// Why a player's playlist or MPD could not be loaded (``PlaylistLoader/loadForPlayer(_:as:directives:context:headers:writer:)``),
/// in the engine's terms. Nothing here is HTTP: the routes choose the status
/// (`ProxyFailure.init(_: PlaylistLoadError)`), the Swift API the ``CacheProxyError`` code.
enum PlaylistLoadError: Error, Sendable, CustomStringConvertible {
    /// The origin did not deliver it and no cached copy could stand in: unreachable, an error
    /// status, an answer that broke or contradicted the request.
    case originFailed(UpstreamError)
    /// The playlist is over the configured size limit.
    case tooLarge(UpstreamError)
    /// A hop is one the proxy must not fetch (``OriginGuard``).
    case refused(UpstreamError)
    /// The load ended with no answer about the playlist (the caller was cancelled: its client
    /// left, or the proxy stops): nothing is to be answered.
    case interrupted(any Error)

    /// Sorts what ``PlaylistLoader/load(_:as:directives:allowsStale:)`` threw.
    init(_ error: any Error) {
        guard let error = error as? UpstreamError else {
            self = .interrupted(error)
            return
        }
        switch error.code {
        case .tooLarge: self = .tooLarge(error)
        case .refused: self = .refused(error)
        default: self = .originFailed(error)
        }
    }

    /// The failure in words, for whoever asked.
    var message: String {
        switch self {
        case .originFailed(let error): error.failureMessage
        case .tooLarge(let error), .refused(let error): error.message
        case .interrupted(let error): "the load was interrupted: \(error)"
        }
    }

    var description: String { message }
}
