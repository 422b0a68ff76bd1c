import CacheProxyParsing
import CacheStore
import HLS
import NIOCore
import SparseFile

/// Serves playlists: fetched whole (express lane), stored raw, and served rewritten so that
/// every URI in them comes back through the proxy.
///
/// A VOD media playlist (`EXT-X-ENDLIST` or `PLAYLIST-TYPE:VOD`) never changes, so a cached copy
/// is served without asking the origin; so is a cached multivariant playlist, revalidated in the
/// background once stale (``PlaylistLoader``). Live playlists are fetched fresh whenever the
/// origin answers, and the cached copy is served (stale) only when it does not.
struct PlaylistResponder {
    let environment: FetchEnvironment
    let addresses: ProxyAddresses
    /// The fields asked for the origin requests (a player's forwarded fields).
    var headers = OriginHeaderFields()

    func respond(origin: OriginURL, directives: DeliveryDirectives, request: RequestHead, writer: ResponseWriter) async throws {
        let loaded = try await ProxyFailure.answering { () async throws(PlaylistLoadError) in
            try await PlaylistLoader.loadForPlayer(origin, directives: directives, environment: environment, headers: headers, writer: writer)
        }
        Self.recordCacheUse(of: loaded, origin: origin, environment: environment)
        var policy = HLSProxyRewritePolicy(endpoint: addresses.proxyEndpoint(for: request))
        // Offline, a player must not pick or switch to a variant the cache cannot play.
        await OfflineVariants(environment: environment).restrict(&policy, loaded: loaded, origin: origin)
        try await send(loaded.body, playlist: loaded.playlist, url: loaded.url, contentType: loaded.contentType,
                       policy: policy, writer: writer)
    }

    /// Sends a playlist's bytes rewritten by `policy`, or, when they are not a playlist after
    /// all, as they are.
    func send(
        _ body: [UInt8], playlist: HLSPlaylist?, url: String, contentType: String?, policy: HLSProxyRewritePolicy, writer: ResponseWriter
    ) async throws {
        guard let playlist, let base = HLSBaseURL(url) else {
            var headers = HeaderFields()
            headers.add(name: "Cache-Control", value: "no-cache")
            headers.add(name: "Content-Type", value: contentType ?? "application/octet-stream")
            headers.add(name: "Content-Length", value: String(body.count))
            try await writer.sendComplete(status: .ok, headers: headers, body: writer.allocator.buffer(bytes: body))
            return
        }
        registerPlayerResources(of: playlist, base: base, url: url)
        try await Self.sendRewritten(playlist.rewritten(base: base, policy: policy), contentType: "application/vnd.apple.mpegurl",
                                     environment: environment, writer: writer)
    }

    /// Sends a manifest rewritten for the proxy: never stored by the player's HTTP stack
    /// (`no-cache`; the proxy decides when it changes), counted as served.
    static func sendRewritten(_ rewritten: [UInt8], contentType: String, environment: FetchEnvironment, writer: ResponseWriter) async throws {
        var headers = HeaderFields()
        headers.add(name: "Cache-Control", value: "no-cache")
        headers.add(name: "Content-Type", value: contentType)
        headers.add(name: "Content-Length", value: String(rewritten.count))
        environment.counters.recordServed(UInt64(rewritten.count))
        try await writer.sendComplete(status: .ok, headers: headers, body: writer.allocator.buffer(bytes: rewritten))
    }

    /// A manifest answered from the cache counts a hit and marks its entry used.
    static func recordCacheUse<Document>(of loaded: LoadedManifest<Document>, origin: OriginURL, environment: FetchEnvironment) {
        guard loaded.source == .cache, let whole = ByteRange(offset: 0, length: UInt64(loaded.body.count)) else { return }
        // Claiming what is cached claims nothing: it counts the hit and marks the entry used.
        let store = environment.store
        _ = try? store.claim(key: store.key(for: origin.string), range: whole)
    }

    /// Init segments and keys take the express lane when the player asks for them, and the
    /// first segments of a VOD playlist are fetched as a start: a player that just loaded it
    /// plays nothing before they are in. Every segment of a VOD playlist goes on the player's
    /// ``PlaybackTimeline``, which tells how urgent its later segments are.
    private func registerPlayerResources(of playlist: HLSPlaylist, base: HLSBaseURL, url: String) {
        guard playlist.kind == .media else { return }
        let store = environment.store
        func key(_ uri: String) -> String? {
            (try? OriginURL(parsing: base.resolve(uri))).map { store.key(for: $0.string) }
        }
        func range(_ byteRange: HLSByteRange?) -> ByteRange? {
            byteRange.flatMap { ByteRange(offset: $0.offset, length: $0.length) }
        }
        for map in playlist.maps { if let key = key(map.uri) { environment.express.register(key, range: range(map.byteRange)) } }
        for playlistKey in playlist.keys { if let uri = playlistKey.uri, let key = key(uri) { environment.express.register(key, range: nil) } }
        // A live player starts near the live edge and goes on fetching the newest segments:
        // which of them is its start cannot be told from the playlist, so live ones stay `ahead`.
        guard !playlist.isLive else { return }
        var seconds = 0.0
        var timeline: [(segment: PlaybackTimeline.Segment, mediaStart: Double)] = []
        for segment in playlist.segments where !segment.gap {
            guard timeline.count < PlaybackTimeline.segmentsPerPresentation else { break }
            if let key = key(segment.uri) {
                let bytes = range(segment.byteRange)
                if seconds < Self.startSeconds { environment.startingSegments.register(key, range: bytes) }
                timeline.append((PlaybackTimeline.Segment(key: key, range: bytes), seconds))
            }
            seconds += max(0, segment.duration.value)
        }
        environment.playbackTimeline.register(store.key(for: url), segments: timeline)
    }

    /// How much media a player needs before it starts: ExoPlayer's default start buffer.
    static let startSeconds = 2.5
}

extension UpstreamError {
    /// Whether a failure means the origin cannot serve now (stale copies may stand in), as
    /// opposed to an answer about the resource (404).
    var isOriginDown: Bool {
        switch code {
        case .unreachable, .truncated: true
        case .status(let status): status >= 500
        case .invalidResponse, .tooLarge, .storeFull, .refused, .notStorable: false
        }
    }
}
