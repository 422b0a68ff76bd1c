import CacheProxyParsing

extension SessionRegistry {
    /// Opens a playback session whose URLs start with `base` (`http://HOST:PORT`), loading what
    /// it plays through `environment`, and registers it.
    func open(_ request: PlaybackSessionRequest, base: String, environment: FetchEnvironment)
        async throws(SessionOpenError) -> SessionEngine {
        let limit = environment.configuration.limits.maximumOpenSessions
        guard hasRoom(limit: limit) else { throw .tooManySessions(limit: limit) }
        let id = Self.makeSessionID()
        let engine = try await SessionOpener(environment: environment).open(request, id: id, base: base + "/sessions/" + id)
        switch add(engine, limit: limit) {
        case nil:
            break
        case .shuttingDown?:
            engine.close()
            throw .shuttingDown
        case .tooMany(let limit)?:
            engine.close()
            throw .tooManySessions(limit: limit)
        }
        environment.logger.debug("session opened", metadata: ["session": "\(id)", "urls": "\(request.urls.map(\.string))"])
        return engine
    }

    /// Every open session, then the last closed ones.
    var statuses: [PlaybackSessionStatus] {
        openSessions.map(\.status) + closedSessions
    }

    /// 16 random hex digits: unguessable enough that one app's session is not another's by
    /// accident, short enough for a URL.
    private static func makeSessionID() -> String {
        let value = UInt64.random(in: .min ... .max)
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
