/// What a request target asks of the proxy, parsed from the untrusted request line.
///
/// - `/proxy?url=<percent-encoded http(s) URL>` fetches through the cache; a player's LL-HLS
///   delivery directives (`_HLS_msn`, `_HLS_part`, `_HLS_skip`, ...) may follow, and are
///   forwarded to the origin. Any other parameter is refused: it almost always means an origin
///   URL pasted without percent-encoding, whose own query would otherwise be cut off silently.
/// - `/status` (and `/debug/status`, the name other engines use) reports the proxy's state.
/// - `/` is a page for people: the dashboard, which reads `/status` and `/entries` (the store's
///   entries, a page at a time: `?offset=N&limit=M`).
/// - `/metrics` gives its metrics in the Prometheus text format.
/// - `/prefetch` manages the prefetch queue; `/downloads` and `/downloads/ID` the downloads.
/// - `/sessions`, `/sessions/ID`, and a session's resources: `/sessions/ID/index.m3u8` (its
///   playlist), `/sessions/ID/proxy?url=...` (everything its playlists name) and
///   `/sessions/ID/dash/<prefix>/<rest>` (a DASH session's MPD and everything it names).
/// - `/dash/<percent-encoded origin prefix>/<rest>`: the path form of DASH URLs
///   (`DASHProxyEndpoint`), which keeps an MPD's `$Number$`-style templates literal; the origin
///   URL is the decoded prefix followed by the rest (its query included) as written.
///
/// - `/entries?url=<percent-encoded URL>` is one entry of the store (`DELETE` removes it);
///   `/entries/pin` and `/entries/unpin` pin and unpin one; `/evict` evicts down to a size.
///
/// Anything else is `ParseError.Code.notFound`. Each case is parsed by its entry in
/// `RouteTable`, which also declares what the route needs (``RouteTraits``); ``RequestRoute``
/// carries both.
public enum ProxyRoute: Sendable, Hashable {
    case proxy(OriginURL, DeliveryDirectives)
    case status
    case metrics
    case prefetch
    case sessions
    case session(String)
    case sessionPlaylist(String, DeliveryDirectives)
    case sessionProxy(String, OriginURL, DeliveryDirectives)
    case downloads
    case download(String)
    case dashboard
    case entries(EntriesPageRequest)
    /// `/entries?url=<percent-encoded URL>`: one entry, by its URL or cache key.
    case entry(String)
    /// `/entries/pin`.
    case pinEntry
    /// `/entries/unpin`.
    case unpinEntry
    /// `/evict`.
    case evict
    #if DASH
    /// A DASH URL in path form: an MPD, or what an MPD names (segments, init sections, ranges).
    case dash(OriginURL)
    #endif

    /// Parses a request target in origin form (`/proxy?url=...`): finds its route in
    /// ``RouteTable`` and parses the parameters the route takes.
    ///
    /// The `url` query parameter is percent-decoded (`+` stays a plus sign: it is not form
    /// encoding) and validated as an ``OriginURL``.
    ///
    /// - Throws: ``ParseError``: `ParseError.Code.tooLong` past `limits`,
    ///   `ParseError.Code.notFound` for another path, `ParseError.Code.missing` without a
    ///   `url` parameter, `ParseError.Code.tooMany` for too many parameters,
    ///   `ParseError.Code.unsupported` for a parameter the proxy does not know, and the
    ///   errors of ``OriginURL`` for the URL itself.
    public init(parsing target: some Collection<UInt8>, limits: RequestTargetLimits = RequestTargetLimits()) throws(ParseError) {
        self = try RequestRoute(target: target, limits: limits).parsed.get()
    }

    /// Parses a request target given as a string.
    public init(parsing target: String, limits: RequestTargetLimits = RequestTargetLimits()) throws(ParseError) {
        try self.init(parsing: Array(target.utf8), limits: limits)
    }
}

/// Bounds on what a request target may cost to parse.
public struct RequestTargetLimits: Sendable, Hashable {
    /// The longest request target accepted. Default 16 KiB (a percent-encoded 8 KiB URL can
    /// take nearly three times its length, but real ones stay far below).
    public var maximumLength: Int
    /// The longest origin URL once decoded. Default 8 KiB.
    public var maximumURLLength: Int
    /// The most query parameters. Default 64.
    public var maximumQueryParameters: Int

    public init(maximumLength: Int = 16 * 1024, maximumURLLength: Int = OriginURL.defaultMaximumLength, maximumQueryParameters: Int = 64) {
        self.maximumLength = maximumLength
        self.maximumURLLength = maximumURLLength
        self.maximumQueryParameters = maximumQueryParameters
    }
}
