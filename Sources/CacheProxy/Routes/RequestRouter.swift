import CacheProxyParsing
import NIOCore

/// Answers one request: hands it to the responder of the route the connection parsed from its
/// target (``RoutedRequest``; the routes are declared in `RouteTable`, CacheProxyParsing), or
/// answers what the route's traits and its parameters refuse. Every failure before a response
/// started becomes an error response, in the route's error format; after that, the connection
/// is closed so the client sees a broken response.
struct RequestRouter: Sendable {
    let context: ProxyContext

    /// Serves `request`; returns whether the connection may carry another one. `body` is what
    /// the request carried (read for POST only), nil when it was over its route's limit.
    func respond(to routed: RoutedRequest, body: ByteBuffer?, writer: ResponseWriter) async -> Bool {
        let request = routed.head
        let traits = routed.route.traits
        context.counters.requestReceived()
        let started = ContinuousClock.now
        defer { context.recordExchange(request, label: traits.label, writer: writer, started: started) }
        do {
            try await dispatch(request, route: routed.route, body: body, writer: writer)
            return true
        } catch let failure as ProxyFailure {
            // The player sees only the status; the access log says why.
            writer.failure = failure.message
            guard !writer.headSent else {
                context.counters.recordBroken()
                context.logger.warning("response cut short", metadata: ["uri": "\(request.uri.prefix(200))", "error": "\(failure.message)"])
                return false
            }
            context.logger.debug("request failed", metadata: ["uri": "\(request.uri.prefix(200))", "status": "\(failure.status)", "error": "\(failure.message)"])
            do {
                let status = ResponseStatus(statusCode: failure.status)
                if failure.field != nil || traits.errors == .json {
                    // The control routes speak JSON, their errors included.
                    try await StatusResponder.sendJSON(ErrorBody(error: failure.message, field: failure.field), status: status,
                                                       headers: failure.headers, writer: writer)
                } else {
                    try await writer.sendError(status, failure.message, extraHeaders: failure.headers)
                }
                return true
            } catch {
                return false
            }
        } catch {
            // The client went away (or the proxy is stopping) while the response was written.
            context.logger.trace("response abandoned", metadata: ["uri": "\(request.uri.prefix(200))", "error": "\(error)"])
            return false
        }
    }

    /// A JSON error answer: `{"error": "...", "field": "\"quality\""}` (field null when the error
    /// is about no field).
    private struct ErrorBody: Encodable {
        var error: String
        @EncodedAsNull var field: String?
    }

    private func dispatch(_ request: RequestHead, route routed: RequestRoute, body: ByteBuffer?, writer: ResponseWriter) async throws {
        // Before the parameters: a POST of a player's URL is 405 whatever its query holds.
        if routed.traits.methods == .getAndHead, request.method != .GET, request.method != .HEAD {
            throw ProxyFailure(status: 405, "only GET and HEAD are served here", headers: ["Allow": "GET, HEAD"])
        }
        let route: ProxyRoute
        switch routed.parsed {
        case .success(let parsed):
            route = parsed
        case .failure(let error):
            switch error.code {
            case .notFound: throw ProxyFailure(status: 404, "not found: use /proxy?url=<percent-encoded URL> or /status")
            case .tooLong: throw ProxyFailure(status: 414, error.message)
            default: throw ProxyFailure(status: 400, error.message)
            }
        }
        switch route {
        case .proxy(let origin, let directives), .sessionProxy(_, let origin, let directives):
            writer.origin = origin.appendingQuery(directives.query).string
        #if DASH
        case .dash(let origin):
            writer.origin = origin.string
        #endif
        default:
            break
        }
        switch route {
        case .prefetch:
            try await PrefetchResponder(environment: context.fetching, scheduler: context.prefetch).respond(to: request, body: body, writer: writer)
        case .status:
            try await StatusResponder(reporter: context.statusReporter).respond(writer: writer)
        case .metrics:
            try await MetricsResponder(environment: context.fetching).respond(writer: writer)
        case .proxy(let origin, let directives):
            try await serve(origin, directives: directives, request: request, writer: writer)
        #if DASH
        case .dash(let origin):
            try await serve(origin, directives: DeliveryDirectives(), request: request, writer: writer)
        #endif
        case .downloads:
            try await DownloadResponder(environment: context.fetching, downloads: context.downloads).respondToCollection(request, body: body, writer: writer)
        case .download(let id):
            try await DownloadResponder(environment: context.fetching, downloads: context.downloads).respondToDownload(id, request: request, writer: writer)
        case .sessions:
            try await sessionResponder.respondToCollection(request, body: body, writer: writer)
        case .session(let id):
            try await sessionResponder.respondToSession(id, request: request, writer: writer)
        case .sessionPlaylist(let id, let directives):
            try await sessionResponder
                .respondToResource(id, origin: nil, directives: directives, request: request, writer: writer)
        case .sessionProxy(let id, let origin, let directives):
            try await sessionResponder
                .respondToResource(id, origin: origin, directives: directives, request: request, writer: writer)
        case .dashboard:
            try await DashboardResponder().respond(writer: writer)
        case .entries(let page):
            try await StoreControlResponder(hits: context.hits).respondToEntries(page, request: request, writer: writer)
        case .entry(let url):
            try await StoreControlResponder(hits: context.hits).respondToEntry(url, request: request, writer: writer)
        case .pinEntry, .unpinEntry:
            try await StoreControlResponder(hits: context.hits).respondToPinning(route == .pinEntry, request: request, body: body, writer: writer)
        case .evict:
            try await StoreControlResponder(hits: context.hits).respondToEvict(request, body: body, writer: writer)
        }
    }

    private var sessionResponder: SessionResponder {
        SessionResponder(hits: context.hits, addresses: context.addresses, sessions: context.sessions)
    }

    /// Serves an origin URL through the cache (from `/proxy?url=` or DASH's path form): as an
    /// HLS playlist or a DASH MPD when its name or its origin's content type says so, as bytes
    /// otherwise.
    private func serve(_ origin: OriginURL, directives: DeliveryDirectives, request: RequestHead, writer: ResponseWriter) async throws {
        try context.fetching.checkAllowed([origin])
        let headers = context.configuration.forwardedFields(from: request.headers)
        let playlists = PlaylistResponder(environment: context.fetching, addresses: context.addresses, headers: headers)
        if PlaylistDetection.hasPlaylistExtension(origin) {
            try await playlists.respond(origin: origin, directives: directives, request: request, writer: writer)
            return
        }
        #if DASH
        let manifests = DASHManifestResponder(environment: context.fetching, addresses: context.addresses, headers: headers)
        if PlaylistDetection.hasDASHExtension(origin) {
            try await manifests.respond(origin: origin, directives: directives, request: request, writer: writer)
            return
        }
        #endif
        let outcome = try await ByteResponder(environment: context.hits, headers: headers).respond(origin: origin, request: request, writer: writer)
        guard outcome == .isPlaylist else { return }
        #if DASH
        if manifests.isManifest(origin) {
            try await manifests.respond(origin: origin, directives: directives, request: request, writer: writer)
            return
        }
        #endif
        try await playlists.respond(origin: origin, directives: directives, request: request, writer: writer)
    }
}
