import CacheProxyParsing
import CacheStore
import HLS
import SparseFile

/// Gets a playlist the way every part of the proxy agrees on: a cached VOD media playlist is
/// used as it is (it never changes); a cached multivariant playlist is used at once and, when
/// stale, refreshed by one background fetch (stale-while-revalidate: a cached video starts
/// without a round trip to the origin); anything else is fetched (concurrent requests for one
/// URL share the fetch) and stored raw, and the cached copy stands in, stale, only when the
/// origin is down and the caller accepts that. Players, prefetching and offline downloads all
/// go through here, so whatever one of them cached, the others read the same way. DASH MPDs
/// load by the same rules (``ManifestDocument``): a static one as a VOD playlist, a dynamic one
/// as a live playlist.
struct PlaylistLoader {
    let environment: FetchEnvironment
    let lane: UpstreamLane.Kind
    /// How urgently a player waits for the playlist (``FetchUrgency``).
    let urgency: FetchUrgency
    /// The fields asked for the origin requests (a session's, a prefetch item's, a player's).
    var headers = OriginHeaderFields()

    /// A playlist's bytes and what is known of them.
    typealias Loaded = LoadedManifest<HLSPlaylist>

    enum Source: Equatable {
        /// A cached VOD media playlist, multivariant playlist or static MPD, used without asking
        /// the origin.
        case cache
        /// Fetched from the origin now.
        case origin
        /// The cached copy, because the origin could not answer.
        case stale
    }

    /// Loads `origin`'s playlist. With `directives` (a player's LL-HLS delivery directives) the
    /// request always goes to the origin, with them appended to its query, and only a
    /// response that is a whole playlist (not a delta update) replaces the cached copy.
    ///
    /// - Parameter allowsStale: whether the cached copy may answer when the origin is down.
    func load(_ origin: OriginURL, directives: DeliveryDirectives = DeliveryDirectives(), allowsStale: Bool) async throws -> Loaded {
        try await load(origin, as: HLSPlaylist.self, directives: directives, allowsStale: allowsStale)
    }

    /// Loads `origin`'s manifest of the given kind, by the rules above.
    func load<Document: ManifestDocument>(
        _ origin: OriginURL, as kind: Document.Type, directives: DeliveryDirectives = DeliveryDirectives(), allowsStale: Bool
    ) async throws -> LoadedManifest<Document> {
        let key = environment.store.key(for: origin.string)
        let cache = PlaylistCache(environment: environment)
        let cached = cache.cached(key)
        // A cached copy's relative URIs resolve against the URL it was fetched from (after
        // redirects), as the fetched one's did.
        let cachedURL = environment.playlistFetches.finalURL(of: origin)
        if directives.isEmpty, let cached, let document = Document.parse(cached.body, url: cachedURL) {
            let loaded = LoadedManifest(body: cached.body, document: document, url: cachedURL, contentType: cached.contentType, source: .cache)
            switch document.cachedCopyUse {
            case .servedAsIs:
                return loaded
            case .servedThenRevalidated:
                environment.counters.recordPlaylistWithoutOrigin()
                PlaylistRevalidation(environment: environment, origin: origin, key: key, cachedBody: cached.body, headers: headers)
                    .startIfStale(validators: cached.validators)
                return loaded
            case .fetchedFresh:
                break
            }
        }
        let fetched: PlaylistFetches.Result
        do {
            fetched = try await environment.playlistFetches.fetch(origin.appendingQuery(directives.query), lane: lane, urgency: urgency, headers: headers)
        } catch let error as UpstreamError where allowsStale && error.isOriginDown && !directives.isBlocking {
            guard let cached else { throw error }
            environment.counters.recordStale()
            environment.logger.info("serving a stale playlist: the origin is unreachable", metadata: ["url": "\(origin)"])
            return LoadedManifest(body: cached.body, document: Document.parse(cached.body, url: cachedURL), url: cachedURL,
                                  contentType: cached.contentType, source: .stale)
        }
        let document = Document.parse(fetched.body, url: fetched.finalURL)
        // A playlist the origin says not to store (or that varies by request) is fetched every time.
        let refusal = environment.upstream.storageRefusal(fetched.head, key: key, origin: origin, headers: headers)
        if !directives.asksForDelta, refusal == nil {
            cache.save(fetched, key: key, replacing: cached?.body)
            if document?.cachedCopyUse == .servedThenRevalidated {
                environment.playlistFreshness.confirmed(key, lifetime: environment.playlistFreshness.lifetime(of: fetched.head))
            }
        }
        return LoadedManifest(body: fetched.body, document: document, url: fetched.finalURL,
                              contentType: fetched.head.metadata.contentType, source: .origin)
    }

    /// A playlist a player asked for, loaded as every playlist response loads it: on the express
    /// lane, a stale copy when the origin fails, and how the cache answered noted on `writer`.
    /// A failure is the engine's (``PlaylistLoadError``): the responder chooses the status.
    static func loadForPlayer<Document: ManifestDocument>(
        _ origin: OriginURL, as kind: Document.Type = HLSPlaylist.self, directives: DeliveryDirectives, environment: FetchEnvironment,
        headers: OriginHeaderFields, writer: ResponseWriter
    ) async throws(PlaylistLoadError) -> LoadedManifest<Document> {
        let loaded: LoadedManifest<Document>
        do {
            loaded = try await PlaylistLoader(environment: environment, lane: .express, urgency: .start, headers: headers)
                .load(origin, as: kind, directives: directives, allowsStale: true)
        } catch {
            throw PlaylistLoadError(error)
        }
        writer.cache = CacheOutcome(playlist: loaded.source, directives: directives)
        return loaded
    }
}
