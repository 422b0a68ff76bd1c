#if DASH
import DASH
#endif

/// Every route the proxy serves, one entry each: the only place a route is declared.
///
/// An entry names its paths (``RoutePattern``: `*` is one segment, `**` the rest), who may use
/// it (``RouteAccess``: a player's `media` route needs no token), its metrics label, the largest
/// `POST` body the connection reads for it, whether other methods than GET and HEAD reach its
/// responder, how its errors are written, and how its target's parameters parse into a
/// ``ProxyRoute``. The first entry whose path matches is the route; a path under a family's
/// prefix that names none of its routes is the family's (404, counted and written as the
/// family's); any other path is ``unmatched``.
///
/// The connection parses a request target once, into a ``RequestRoute`` that carries the
/// entry's traits and the parsed ``ProxyRoute``; the guard, the hit handlers, the connection's
/// body limit, the router and the metrics all read that value. `RequestRouter` (CacheProxy)
/// switches over ``ProxyRoute``, so a new case cannot be left without its responder.
enum RouteTable {
    static let entries: [RouteEntry] = [
        // A player's routes: through the cache, GET and HEAD, errors as text.
        RouteEntry("/proxy", access: .media, label: .proxy, errors: .text) { match throws(ParseError) in
            let (origin, directives) = try ProxyRoute.proxyQuery(match.query, limits: match.limits)
            return .proxy(origin, directives)
        },
    ] + dashEntries + [
        // A session's playlists and media; the session's responder answers other methods.
        RouteEntry("/sessions/*/index.m3u8", access: .media, label: .session, methods: .any, errors: .text) { match throws(ParseError) in
            let id = try ProxyRoute.identifier(match.parameter, what: "session")
            return .sessionPlaylist(id, try ProxyRoute.directives(match.query))
        },
        RouteEntry("/sessions/*/proxy", access: .media, label: .session, methods: .any, errors: .text) { match throws(ParseError) in
            let id = try ProxyRoute.identifier(match.parameter, what: "session")
            let (origin, directives) = try ProxyRoute.proxyQuery(match.query, limits: match.limits)
            return .sessionProxy(id, origin, directives)
        },
        // The control routes: JSON errors, every method to the responder.
        RouteEntry("/sessions", "/sessions/", access: .control, label: .sessions, body: .sessionRequest, methods: .any, errors: .json,
                   parameters: RouteEntry.always(.sessions)),
        RouteEntry("/sessions/*", "/sessions/*/", access: .control, label: .sessions, methods: .any, errors: .json) { match throws(ParseError) in
            .session(try ProxyRoute.identifier(match.parameter, what: "session"))
        },
        RouteEntry("/sessions/**", access: .control, label: .sessions, methods: .any, errors: .json, parameters: RouteEntry.notFound),
        RouteEntry("/prefetch", access: .control, label: .prefetch, body: .prefetchRequest, methods: .any, errors: .json,
                   parameters: RouteEntry.always(.prefetch)),
        RouteEntry("/prefetch/**", access: .control, label: .other, methods: .any, errors: .json, parameters: RouteEntry.notFound),
        RouteEntry("/downloads", "/downloads/", access: .control, label: .downloads, body: .bytes(DownloadRequest.maximumBodyBytes),
                   methods: .any, errors: .json, parameters: RouteEntry.always(.downloads)),
        RouteEntry("/downloads/*", access: .control, label: .downloads, methods: .any, errors: .json) { match throws(ParseError) in
            .download(try ProxyRoute.identifier(match.parameter, what: "download"))
        },
        RouteEntry("/downloads/**", access: .control, label: .downloads, methods: .any, errors: .json, parameters: RouteEntry.notFound),
        RouteEntry("/entries", access: .control, label: .store, methods: .any, errors: .json) { match throws(ParseError) in
            try ProxyRoute.entriesRoute(match.query)
        },
        RouteEntry("/entries/pin", access: .control, label: .store, body: .bytes(EntryRequest.maximumBodyBytes), methods: .any, errors: .json,
                   parameters: RouteEntry.always(.pinEntry)),
        RouteEntry("/entries/unpin", access: .control, label: .store, body: .bytes(EntryRequest.maximumBodyBytes), methods: .any, errors: .json,
                   parameters: RouteEntry.always(.unpinEntry)),
        RouteEntry("/entries/**", access: .control, label: .store, methods: .any, errors: .json, parameters: RouteEntry.notFound),
        RouteEntry("/evict", access: .control, label: .store, body: .bytes(EvictRequest.maximumBodyBytes), methods: .any, errors: .json,
                   parameters: RouteEntry.always(.evict)),
        RouteEntry("/evict/**", access: .control, label: .other, methods: .any, errors: .json, parameters: RouteEntry.notFound),
        // Read-only control routes, answered in text.
        RouteEntry("/status", "/debug/status", access: .control, label: .status, errors: .text, parameters: RouteEntry.always(.status)),
        RouteEntry("/metrics", access: .control, label: .metrics, errors: .text, parameters: RouteEntry.always(.metrics)),
        RouteEntry("/", access: .control, label: .other, errors: .text) { match throws(ParseError) in
            try ProxyRoute.refuseForgottenProxyPath(match.query)
            return .dashboard
        },
    ]

    #if DASH
    /// DASH's path forms, which keep an MPD's templates literal; the query belongs to the origin
    /// URL. Without the DASH trait, MPDs go through `/proxy` as bytes and these paths are 404.
    private static let dashEntries: [RouteEntry] = [
        RouteEntry(DASHProxyEndpoint.pathPrefix + "**", access: .media, label: .proxy, errors: .text) { match throws(ParseError) in
            .dash(try ProxyRoute.dashOrigin(match.target, limits: match.limits))
        },
        RouteEntry("/sessions/*/dash/**", access: .media, label: .session, methods: .any, errors: .text) { match throws(ParseError) in
            let id = try ProxyRoute.identifier(match.parameter, what: "session")
            return .sessionProxy(id, try ProxyRoute.dashOrigin(match.afterParameter, limits: match.limits), DeliveryDirectives())
        },
    ]
    #else
    private static let dashEntries: [RouteEntry] = []
    #endif

    /// The traits of a path no entry matches: answered 404 in text, other methods 405.
    static let unmatched = RouteTraits(access: .control, label: .other, errors: .text)

    /// The entry `path` names and the range of its `*` segment; nil when none matches.
    static func entry<Path: Collection<UInt8>>(forPath path: Path) -> (RouteEntry, parameter: Range<Path.Index>)? {
        for entry in entries {
            if let parameter = entry.match(path) { return (entry, parameter) }
        }
        return nil
    }

    /// The traits of the route `target` names, from its path alone (its query is not parsed).
    static func traits(forPath target: some Collection<UInt8>) -> RouteTraits {
        entry(forPath: target.prefix { $0 != UInt8(ascii: "?") })?.0.traits ?? unmatched
    }
}
