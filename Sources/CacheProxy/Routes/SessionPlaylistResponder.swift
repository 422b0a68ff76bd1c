import CacheProxyParsing
import HLS

/// Serves a session's playlists: loaded as the proxy loads any playlist, then shaped by the
/// session's policy — one variant when locked, BANDWIDTH injected, variants above the maximum
/// dropped, only cached segments listed while hiding, the head alone through the proxy — and
/// rewritten so that every URI routes back through the session.
struct SessionPlaylistResponder {
    let environment: FetchEnvironment
    let addresses: ProxyAddresses
    let engine: SessionEngine
    /// The fields asked for the origin requests: the player's forwarded fields over the session's.
    var headers = OriginHeaderFields()

    /// `GET /sessions/ID/index.m3u8`: the presentation's playlist, or the virtual playlist.
    func respondEntry(directives: DeliveryDirectives, writer: ResponseWriter) async throws {
        switch engine.presentation.entry {
        case .playlist(let origin):
            try await respond(origin: origin, directives: directives, writer: writer)
        case .virtual(let joined):
            let key = engine.presentation.playlistURL
            guard let timeline = engine.timeline(key) else { throw ProxyFailure(status: 500, "the virtual playlist has no timeline") }
            try await sendMedia(joined, url: engine.request.urls[0].string, timeline: timeline, writer: writer)
        #if DASH
        case .dash:
            // Not a redirect: players resolve the MPD's references against the URL they asked for.
            throw ProxyFailure(status: 404, "session \(engine.id) plays a DASH presentation: its MPD is at \(engine.presentation.playlistURL)")
        #endif
        }
    }

    /// A playlist the session's playlists name (a variant's or a rendition's media playlist).
    func respond(origin: OriginURL, directives: DeliveryDirectives, writer: ResponseWriter) async throws {
        let loaded = try await ProxyFailure.answering { () async throws(PlaylistLoadError) in
            try await PlaylistLoader.loadForPlayer(origin, directives: directives, environment: environment, headers: headers, writer: writer)
        }
        if loaded.source == .origin { engine.traffic.recordFetched(UInt64(loaded.body.count)) }
        guard let playlist = loaded.playlist else {
            try await send(loaded.body, playlist: nil, url: loaded.url, contentType: loaded.contentType, writer: writer)
            return
        }
        guard playlist.kind == .media else {
            engine.learnRoles(from: playlist, url: loaded.url)
            var policy = self.policy
            // Offline, as on /proxy?url=: the app's player must not pick or switch to a variant
            // the cache cannot play.
            await OfflineVariants(environment: environment).restrict(&policy, loaded: loaded, origin: origin)
            try await send(loaded.body, playlist: playlist, url: loaded.url, contentType: loaded.contentType, policy: policy, writer: writer)
            return
        }
        let key = environment.store.key(for: origin.string)
        var timeline = engine.timeline(key)
        if timeline == nil || playlist.isLive {
            let current = SessionTimeline(playlist: playlist, url: loaded.url, playlistKey: key, role: engine.role(of: key), store: environment.store)
            engine.register(current)
            timeline = current
        }
        guard let timeline else { return }
        try await sendMedia(playlist, url: loaded.url, timeline: timeline, writer: writer)
    }

    /// A media playlist: waits for the start buffer the first time, lists only cached segments
    /// while hiding (a growing EVENT playlist until every segment is cached), then rewrites.
    private func sendMedia(_ playlist: HLSPlaylist, url: String, timeline: SessionTimeline, writer: ResponseWriter) async throws {
        await engine.waitForStart(of: timeline)
        var served = playlist
        if engine.request.hideUntilBuffered, !playlist.isLive {
            let cached = timeline.cachedPrefix(store: environment.store)
            if cached < timeline.count, let growing = try? playlist.eventPlaylist(listingFirst: cached),
               let parsed = try? HLSPlaylist(parsing: growing, options: HLSParserOptions(playlistURL: url)) {
                served = parsed
            }
        }
        try await send(served.bytes, playlist: served, url: url, contentType: nil, writer: writer)
    }

    private func send(
        _ body: [UInt8], playlist: HLSPlaylist?, url: String, contentType: String?, policy: HLSProxyRewritePolicy? = nil, writer: ResponseWriter
    ) async throws {
        try await PlaylistResponder(environment: environment, addresses: addresses)
            .send(body, playlist: playlist, url: url, contentType: contentType, policy: policy ?? self.policy, writer: writer)
    }

    /// The session's rewrite policy.
    private var policy: HLSProxyRewritePolicy {
        let request = engine.request
        let endpoint = HLSProxyEndpoint(engine.presentation.endpoint) ?? addresses.proxyEndpoint(for: nil)
        var policy = HLSProxyRewritePolicy(endpoint: endpoint, headSegmentCount: request.headSegments, maximumBandwidth: request.maximumBandwidth)
        if let bandwidth = request.bandwidth { policy.bandwidthOverride = { _ in bandwidth } }
        if let locked = engine.presentation.locked { policy.lock(to: locked.summary) }
        return policy
    }
}
