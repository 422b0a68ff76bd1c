#if DASH
import CacheProxyParsing
import DASH

extension SessionOpener {
    /// A DASH session: the MPD is loaded (through the cache) and read for the quality lock; the
    /// player then fetches it at the session's path form, where it is served rewritten with the
    /// lock and the maximum bandwidth (``DASHManifestResponder``). The buffer policies follow
    /// HLS media playlists' segments, which an MPD does not have: they are refused by name.
    func openDASH(_ request: PlaybackSessionRequest, id: String, base: String) async throws(SessionOpenError) -> SessionEngine {
        let hlsOnly: [(String, Bool)] = [
            ("bufferAhead", request.bufferAhead != nil), ("startBuffer", request.startBuffer != nil),
            ("hideUntilBuffered", request.hideUntilBuffered), ("headSegments", request.headSegments != nil),
            ("bandwidth", request.bandwidth != nil),
        ]
        if let (field, _) = hlsOnly.first(where: \.1) {
            throw SessionOpenError.invalidField(field, "\"\(field)\" is not supported for a DASH presentation (an MPD) yet: only \"quality\" and \"maxBandwidth\" are")
        }
        let origin = request.urls[0]
        let loaded = try await load(origin, as: DASHManifest.self, field: "url", headers: request.headers)
        guard let manifest = loaded.document else {
            throw SessionOpenError.invalidField("url", "\(origin) is not a DASH MPD that parses")
        }
        var presentation = SessionPresentation(entry: .dash(origin), locked: nil, base: base)
        guard presentation.dashEndpoint != nil else {
            throw .cannotServeDASH(base: base)
        }
        if let quality = request.quality {
            guard let lock = DASHSessionLock(manifest: manifest, quality: quality, maximumBandwidth: request.maximumBandwidth) else {
                throw SessionOpenError.invalidField("url", "\(origin) lists no Representation to play")
            }
            presentation.dashLock = lock
        }
        return SessionEngine(id: id, request: request, presentation: presentation, environment: environment)
    }
}
#endif
