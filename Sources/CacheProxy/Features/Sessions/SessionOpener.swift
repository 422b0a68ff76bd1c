import CacheProxyParsing
import HLS

/// Opens a playback session: loads what it plays (through the cache, so a cached presentation
/// opens with the origin down), settles the locked variant, joins a virtual playlist, and
/// starts buffering when the session asks for it. Every refusal names the field it is about.
struct SessionOpener {
    let environment: FetchEnvironment

    func open(_ request: PlaybackSessionRequest, id: String, base: String) async throws(SessionOpenError) -> SessionEngine {
        if let refused = request.urls.first(where: { !environment.allows($0) }) {
            throw .notAllowed(host: refused.host)
        }
        if request.isVirtual {
            return try await openVirtual(request, id: id, base: base)
        }
        let origin = request.urls[0]
        #if DASH
        if PlaylistDetection.hasDASHExtension(origin) {
            return try await openDASH(request, id: id, base: base)
        }
        #endif
        let loaded = try await load(origin, field: "url", headers: request.headers)
        guard let playlist = loaded.playlist else {
            #if DASH
            if environment.holdsDASHManifest(origin, headers: request.headers) {
                return try await openDASH(request, id: id, base: base)
            }
            #endif
            throw SessionOpenError.invalidField("url", "\(origin) is not \(PlaylistDetection.manifestKinds)")
        }
        var presentation = SessionPresentation(entry: .playlist(origin), locked: nil, base: base)
        guard playlist.kind == .master else {
            let engine = SessionEngine(id: id, request: request, presentation: presentation, environment: environment)
            engine.register(SessionTimeline(playlist: playlist, url: loaded.url, playlistKey: environment.store.key(for: origin.string),
                                            role: .main(audioGroup: nil), store: environment.store))
            return engine
        }
        if let quality = request.quality {
            guard let chosen = playlist.variant(for: quality, maximumBandwidth: request.maximumBandwidth) else {
                throw SessionOpenError.invalidField("url", "\(origin) lists no variant to play")
            }
            presentation.locked = .init(summary: chosen, resolution: playlist.variants[chosen.index].resolution?.description)
        }
        let engine = SessionEngine(id: id, request: request, presentation: presentation, environment: environment)
        engine.learnRoles(from: playlist, url: loaded.url)
        if let locked = presentation.locked, engine.aheadAmount != nil || engine.startAmount != nil {
            await preload(variant: playlist.variants[locked.summary.index], of: playlist, url: loaded.url, into: engine)
        }
        return engine
    }

    /// Loads the locked variant's media playlist and its audio rendition's, so that buffering
    /// starts before the player asks for them. A failure here only delays buffering: the
    /// player's own requests load them again.
    private func preload(variant: HLSVariant, of multivariant: HLSPlaylist, url: String, into engine: SessionEngine) async {
        guard let base = HLSBaseURL(url) else { return }
        var uris = [(variant.uri, SessionTimeline.Role.main(audioGroup: variant.audio))]
        for rendition in HLSWarmPlan.renditions(for: variant, in: multivariant) where rendition.type == "AUDIO" {
            if let uri = rendition.uri { uris.append((uri, .rendition(type: "AUDIO", groupID: rendition.groupID))) }
        }
        for (uri, role) in uris {
            guard let origin = try? OriginURL(parsing: base.resolve(uri)),
                  let loaded = try? await PlaylistLoader(environment: environment, lane: .express, urgency: .start, headers: engine.request.headers)
                      .load(origin, allowsStale: true),
                  let media = loaded.playlist, media.kind == .media else { continue }
            engine.register(SessionTimeline(playlist: media, url: loaded.url, playlistKey: environment.store.key(for: origin.string),
                                            role: role, store: environment.store))
        }
    }

    private func openVirtual(_ request: PlaybackSessionRequest, id: String, base: String) async throws(SessionOpenError) -> SessionEngine {
        var parts: [HLSVirtualPlaylist.Part] = []
        var locked: SessionPresentation.LockedVariant?
        for (index, origin) in request.urls.enumerated() {
            let field = "urls[\(index)]"
            if PlaylistDetection.hasDASHExtension(origin) {
                throw SessionOpenError.invalidField(field, "\(origin) is a DASH MPD; a virtual playlist joins HLS playlists only")
            }
            let loaded = try await load(origin, field: field, headers: request.headers)
            guard let playlist = loaded.playlist else { throw SessionOpenError.invalidField(field, "\(origin) is not an HLS playlist") }
            guard playlist.kind == .master else {
                parts.append(try part(playlist, url: loaded.url, field: field))
                continue
            }
            guard let quality = request.quality else {
                throw SessionOpenError.invalidField("quality", "a virtual playlist needs \"quality\": \(field) is a multivariant playlist")
            }
            guard let chosen = playlist.variant(for: quality, maximumBandwidth: request.maximumBandwidth),
                  let playlistBase = HLSBaseURL(loaded.url) else {
                throw SessionOpenError.invalidField(field, "\(origin) lists no variant to play")
            }
            let variant = playlist.variants[chosen.index]
            if let group = variant.audio, playlist.renditions.contains(where: { $0.type == "AUDIO" && $0.groupID == group && $0.uri != nil }) {
                throw SessionOpenError.invalidField(field, "\(origin) plays its audio from a separate rendition; a virtual playlist joins muxed media only")
            }
            if locked == nil { locked = .init(summary: chosen, resolution: variant.resolution?.description) }
            guard let mediaOrigin = try? OriginURL(parsing: playlistBase.resolve(variant.uri)) else {
                throw SessionOpenError.invalidField(field, "\(origin): its variant's URI \(variant.uri) cannot be fetched")
            }
            let media = try await load(mediaOrigin, field: field, headers: request.headers)
            guard let mediaPlaylist = media.playlist, mediaPlaylist.kind == .media else {
                throw SessionOpenError.invalidField(field, "\(mediaOrigin) is not a media playlist")
            }
            parts.append(try part(mediaPlaylist, url: media.url, field: field))
        }
        let joined: HLSPlaylist
        do {
            joined = try HLSVirtualPlaylist(joining: parts).playlist
        } catch {
            throw SessionOpenError.invalidField(error.partIndex.map { "urls[\($0)]" } ?? "urls", error.message)
        }
        let presentation = SessionPresentation(entry: .virtual(joined), locked: locked, base: base)
        let engine = SessionEngine(id: id, request: request, presentation: presentation, environment: environment)
        engine.register(SessionTimeline(playlist: joined, url: request.urls[0].string, playlistKey: presentation.playlistURL,
                                        role: .main(audioGroup: nil), store: environment.store))
        return engine
    }

    private func part(_ playlist: HLSPlaylist, url: String, field: String) throws(SessionOpenError) -> HLSVirtualPlaylist.Part {
        guard let base = HLSBaseURL(url) else { throw SessionOpenError.invalidField(field, "\(url) cannot be resolved against") }
        return HLSVirtualPlaylist.Part(playlist: playlist, url: base)
    }

    private func load(_ origin: OriginURL, field: String, headers: OriginHeaderFields) async throws(SessionOpenError) -> PlaylistLoader.Loaded {
        try await load(origin, as: HLSPlaylist.self, field: field, headers: headers)
    }

    func load<Document: ManifestDocument>(
        _ origin: OriginURL, as kind: Document.Type, field: String, headers: OriginHeaderFields
    ) async throws(SessionOpenError) -> LoadedManifest<Document> {
        do {
            return try await PlaylistLoader(environment: environment, lane: .express, urgency: .start, headers: headers)
                .load(origin, as: kind, allowsStale: true)
        } catch {
            throw .loadFailed(field: field, origin: origin, PlaylistLoadError(error))
        }
    }
}
