
// The statuses of the engine's errors: the one place where a failure of the engine (origins,
// playlists, bytes, sessions) becomes an HTTP answer. The Swift API maps the same errors to
// `CacheProxyError` codes on its own (CacheProxyError+EngineErrors.swift), so a status changed
// here changes no Swift error.
extension ProxyFailure {
    /// An upstream error: an origin's 4xx is passed on (a 404 stays a 404), a hop the origin
    /// guard refused is 403, everything else is a gateway failure.
    init(_ error: UpstreamError) {
        switch error.code {
        case .status(let status) where (400..<500).contains(status) && status != 416: self.init(status: status, error.failureMessage)
        case .refused: self.init(status: 403, error.failureMessage)
        default: self.init(status: 502, error.failureMessage)
        }
    }

    /// A playlist that could not be loaded, as its origin failed; nil for an interrupted load,
    /// which is answered with nothing (its client left, or the proxy stops).
    init?(_ error: PlaylistLoadError) {
        switch error {
        case .originFailed(let upstream), .tooLarge(let upstream), .refused(let upstream): self.init(upstream)
        case .interrupted: return nil
        }
    }

    /// Runs a player's playlist `load`, its failure given its status (an interrupted one is
    /// thrown on as it is: nothing answers it).
    static func answering<Loaded>(_ load: () async throws(PlaylistLoadError) -> Loaded) async throws -> Loaded {
        do {
            return try await load()
        } catch {
            if let failure = ProxyFailure(error) { throw failure }
            throw error
        }
    }

    /// Bytes that could not be had: the store's or the proxy's state is 503 (try again), the
    /// origin's failure as an upstream error, bytes that never came a gateway failure.
    init(_ error: ByteDeliveryError) {
        switch error {
        case .storeRefused, .shuttingDown: self.init(status: 503, error.message)
        case .originFailed(let upstream): self.init(upstream)
        case .notFetched: self.init(status: 502, error.message)
        }
    }

    /// A range past the end: 416, with the length in `Content-Range` (RFC 9110, 15.5.17).
    init(_ error: UnsatisfiableRange) {
        var headers = HeaderFields()
        headers.add(name: "Content-Range", value: "bytes */\(error.length)")
        headers.add(name: "Accept-Ranges", value: "bytes")
        self.init(status: 416, error.description, headers: headers)
    }

    /// A session that could not be opened: a field's fault is 400 and names the field (the
    /// answer is JSON), a host off the allow-list 403, a playlist that could not be loaded its
    /// origin's failure (502 when the load was interrupted), the session limit 429, a proxy
    /// shutting down 503.
    init(_ error: SessionOpenError) {
        switch error {
        case .invalidField(let field, let message):
            self.init(status: 400, message)
            self.field = "\"\(field)\""
        case .notAllowed: self.init(status: 403, error.message)
        case .loadFailed(_, _, let load): self.init(status: ProxyFailure(load)?.status ?? 502, error.message)
        #if DASH
        case .cannotServeDASH: self.init(status: 502, error.message)
        #endif
        case .tooManySessions: self.init(status: 429, error.message)
        case .shuttingDown: self.init(status: 503, error.message)
        }
    }
}
