import CacheProxyParsing
import NIOCore

/// The session routes: `POST /sessions` opens one, `GET /sessions` lists them, `GET` and
/// `DELETE /sessions/ID` report and close one, and `GET /sessions/ID/...` serves its playlists
/// and media.
struct SessionResponder {
    /// What a session's media is answered from; its fetching is what opens sessions.
    let hits: HitEnvironment
    let addresses: ProxyAddresses
    let sessions: SessionRegistry

    func respondToCollection(_ request: RequestHead, body: ByteBuffer?, writer: ResponseWriter) async throws {
        switch request.method {
        case .POST:
            let limits = hits.configuration.limits.sessions
            let parsed = try ControlRequest.parse(body, limit: limits.maximumBodyBytes, what: "a session request") {
                bytes throws(ParseError) in try PlaybackSessionRequest(parsing: bytes, limits: limits)
            }
            let engine: SessionEngine
            do {
                engine = try await sessions.open(parsed, base: addresses.baseURL(for: request), environment: hits.fetching)
            } catch {
                throw ProxyFailure(error)
            }
            try await StatusResponder.sendJSON(engine.status, status: .created, writer: writer)
        case .GET, .HEAD:
            try await StatusResponder.sendJSON(sessions.statuses, status: .ok, writer: writer)
        default:
            throw ProxyFailure(status: 405, "/sessions takes POST and GET", headers: ["Allow": "POST, GET, HEAD"])
        }
    }

    func respondToSession(_ id: String, request: RequestHead, writer: ResponseWriter) async throws {
        switch request.method {
        case .GET, .HEAD:
            guard let status = sessions.session(id)?.status ?? sessions.closedSession(id) else { throw Self.unknown(id) }
            try await StatusResponder.sendJSON(status, status: .ok, writer: writer)
        case .DELETE:
            guard let status = sessions.close(id) else { throw Self.unknown(id) }
            try await StatusResponder.sendJSON(status, status: .ok, writer: writer)
        default:
            throw ProxyFailure(status: 405, "/sessions/ID takes GET and DELETE", headers: ["Allow": "GET, HEAD, DELETE"])
        }
    }

    /// `GET /sessions/ID/index.m3u8`, `GET /sessions/ID/proxy?url=...` and `GET /sessions/ID/dash/...`.
    func respondToResource(_ id: String, origin: OriginURL?, directives: DeliveryDirectives, request: RequestHead,
                           writer: ResponseWriter) async throws {
        guard request.method == .GET || request.method == .HEAD else {
            throw ProxyFailure(status: 405, "a session's playlists and media take GET and HEAD", headers: ["Allow": "GET, HEAD"])
        }
        guard let engine = sessions.session(id) else {
            throw sessions.closedSession(id) != nil ? ProxyFailure(status: 410, "session \(id) is closed") : Self.unknown(id)
        }
        if sessions.activate(engine) {
            hits.fetching.logger.debug("session resumed", metadata: ["session": "\(id)"])
        }
        let started = ContinuousClock.now
        engine.traffic.requestStarted()
        writer.session = engine.traffic
        defer {
            engine.traffic.requestEnded(after: (writer.headSentAt ?? .now) - started)
            // The idle timeout counts from the end of the player's last request.
            engine.touch()
        }
        do {
            try await respondToResource(engine, origin: origin, directives: directives, request: request, writer: writer)
        } catch let failure as ProxyFailure {
            // What the player got instead of its bytes (an origin's 403 for credentials that
            // expired, say) is what the app needs to see in the session's state.
            engine.traffic.recordFailure(failure.description)
            throw failure
        }
    }

    private func respondToResource(_ engine: SessionEngine, origin: OriginURL?, directives: DeliveryDirectives, request: RequestHead,
                                   writer: ResponseWriter) async throws {
        let headers = hits.configuration.forwardedFields(from: request.headers).merged(over: engine.request.headers)
        let playlists = SessionPlaylistResponder(environment: hits.fetching, addresses: addresses, engine: engine, headers: headers)
        guard let origin else {
            try await playlists.respondEntry(directives: directives, writer: writer)
            return
        }
        try hits.fetching.checkAllowed([origin])
        if PlaylistDetection.hasPlaylistExtension(origin) {
            try await playlists.respond(origin: origin, directives: directives, writer: writer)
            return
        }
        #if DASH
        let manifests = DASHManifestResponder(environment: hits.fetching, addresses: addresses, headers: headers, session: engine)
        if PlaylistDetection.hasDASHExtension(origin) {
            try await manifests.respond(origin: origin, directives: directives, request: request, writer: writer)
            return
        }
        #endif
        engine.playerRequested(key: hits.store.key(for: origin.string), offset: Self.firstByte(of: request))
        let outcome = try await ByteResponder(environment: hits, session: engine.traffic, headers: headers)
            .respond(origin: origin, request: request, writer: writer)
        guard outcome == .isPlaylist else { return }
        #if DASH
        if manifests.isManifest(origin) {
            try await manifests.respond(origin: origin, directives: directives, request: request, writer: writer)
            return
        }
        #endif
        try await playlists.respond(origin: origin, directives: directives, writer: writer)
    }

    /// The first byte a request's `Range` asks for, when it names one without the length.
    private static func firstByte(of request: RequestHead) -> UInt64? {
        guard let value = request.headers.first(name: "range"), case .single(let range)? = try? RangeRequest(parsing: value) else {
            return nil
        }
        switch range {
        case .closed(let first, _), .from(let first): return first
        case .suffix: return nil
        }
    }

    private static func unknown(_ id: String) -> ProxyFailure {
        ProxyFailure(status: 404, "no session \(id)")
    }
}
