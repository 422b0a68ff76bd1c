// The Swift API's codes for the engine's errors, chosen from what failed, never from the status
// the HTTP routes answer the same failure with (ProxyFailure+EngineErrors.swift).
extension CacheProxyError {
    /// A session that could not be opened: what the request asked for (a field, a host off the
    /// allow-list, a URL the origin guard refuses) is `Code.invalidRequest`; a playlist the
    /// origin did not deliver, whatever its answer, `Code.originFailed`; the session limit
    /// `Code.limitReached`; a proxy shutting down `Code.alreadyStopped`.
    init(_ error: SessionOpenError) {
        let code: Code = switch error {
        case .invalidField, .notAllowed, .loadFailed(_, _, .refused): .invalidRequest
        case .loadFailed: .originFailed
        #if DASH
        case .cannotServeDASH: .originFailed
        #endif
        case .tooManySessions: .limitReached
        case .shuttingDown: .alreadyStopped
        }
        self.init(code, error.message)
    }
}
