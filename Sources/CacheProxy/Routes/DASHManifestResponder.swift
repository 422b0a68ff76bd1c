#if DASH
import CacheProxyParsing
import DASH

/// Serves DASH MPDs: fetched whole (express lane), stored raw, and served rewritten so that
/// every URL a player requests (BaseURLs, templates, SegmentURLs, initialization and index
/// ranges) comes back through the proxy in DASH's path form, `/dash/<origin prefix>/<rest>`,
/// where `$Number$`-style templates stay literal for the player to expand.
///
/// The MPD is rewritten against the URL the player fetched it from. At its path form its
/// relative references already resolve through the proxy and stay as written; at
/// `/proxy?url=...` (where ffmpeg resolved them against `/proxy` and stopped: issue 36) it gets
/// an MPD-level `BaseURL` naming the path form of its directory. The MPD is served there, not
/// redirected to its path form: ffmpeg 5.1 resolves against the URL it asked for, not the one
/// a redirect gave. An MPD that does not parse or cannot be rewritten is a 502 naming the error
/// and where it is, never the origin's bytes: those would send the player to the origin (or,
/// resolved against the proxy, nowhere).
struct DASHManifestResponder {
    let environment: FetchEnvironment
    let addresses: ProxyAddresses
    /// The fields asked for the origin requests (a player's forwarded fields).
    var headers = OriginHeaderFields()
    /// The playback session whose player asks, if any: its URLs route through the session, and
    /// its quality lock and maximum bandwidth drop Representations.
    var session: SessionEngine?

    /// Media types written on the rewritten MPD.
    static let contentType = "application/dash+xml"

    func respond(origin: OriginURL, directives: DeliveryDirectives, request: RequestHead, writer: ResponseWriter) async throws {
        let loaded = try await ProxyFailure.answering { () async throws(PlaylistLoadError) in
            try await PlaylistLoader.loadForPlayer(origin, as: DASHManifest.self, directives: directives, environment: environment,
                                                   headers: headers, writer: writer)
        }
        PlaylistResponder.recordCacheUse(of: loaded, origin: origin, environment: environment)
        let manifest = try loaded.document ?? Self.parseFailure(loaded.body)
        if let session, loaded.source == .origin { session.traffic.recordFetched(UInt64(loaded.body.count)) }
        let base = addresses.baseURL(for: request)
        guard let manifestURL = DASHAbsoluteURL(loaded.url), let endpoint = session?.presentation.dashEndpoint ?? DASHProxyEndpoint(base),
              let servedURL = DASHAbsoluteURL(base + request.uri) else {
            throw ProxyFailure(status: 502, "the proxy's address \(base) cannot serve DASH: its URLs need a base without a path")
        }
        var policy = DASHProxyRewritePolicy(endpoint: endpoint, servedManifestURL: servedURL)
        if let session {
            policy.maximumBandwidth = session.request.maximumBandwidth
            if let lock = session.presentation.dashLock { policy.keepRepresentation = { lock.keeps($0) } }
        }
        let rewritten: [UInt8]
        do {
            rewritten = try manifest.rewritten(manifestURL: manifestURL, policy: policy)
        } catch {
            throw ProxyFailure(status: 502, "the MPD cannot be served through the proxy (\(error.code)): \(error)")
        }
        DASHPlayerResources(environment: environment).register(manifest, manifestURL: manifestURL)
        try await PlaylistResponder.sendRewritten(rewritten, contentType: Self.contentType, environment: environment, writer: writer)
    }

    /// Whether the entry the byte path just found for `origin` is an MPD by its content type.
    func isManifest(_ origin: OriginURL) -> Bool {
        environment.holdsDASHManifest(origin, headers: headers)
    }

    /// The error of bytes that did not parse as an MPD, for the 502 that replaces them.
    private static func parseFailure(_ body: [UInt8]) throws(ProxyFailure) -> DASHManifest {
        do {
            return try DASHManifest(parsing: body)
        } catch {
            throw ProxyFailure(status: 502, "the origin's MPD does not parse (\(error.code)): \(error)")
        }
    }
}
#endif
