import DASH

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
/// Anything else is ``ParseError/Code/notFound``.
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
    /// A DASH URL in path form: an MPD, or what an MPD names (segments, init sections, ranges).
    case dash(OriginURL)

    /// Parses a request target in origin form (`/proxy?url=...`).
    ///
    /// The `url` query parameter is percent-decoded (`+` stays a plus sign: it is not form
    /// encoding) and validated as an ``OriginURL``.
    ///
    /// - Throws: ``ParseError``: ``ParseError/Code/tooLong`` past `limits`,
    ///   ``ParseError/Code/notFound`` for another path, ``ParseError/Code/missing`` without a
    ///   `url` parameter, ``ParseError/Code/tooMany`` for too many parameters,
    ///   ``ParseError/Code/unsupported`` for a parameter the proxy does not know, and the
    ///   errors of ``OriginURL`` for the URL itself.
    public init(parsing target: some Collection<UInt8>, limits: RequestTargetLimits = RequestTargetLimits()) throws(ParseError) {
        guard target.count <= limits.maximumLength else {
            throw ParseError(.tooLong, "request target longer than \(limits.maximumLength) bytes")
        }
        let bytes = Array(target)
        // The path form's query belongs to the origin URL, so it is not split off first.
        if bytes.starts(with: DASHProxyEndpoint.pathPrefix.utf8) {
            self = .dash(try Self.dashOrigin(bytes, limits: limits))
            return
        }
        if RouteAccess.isSessionDASHPath(bytes) {
            self = try Self.sessionDASHRoute(bytes.dropFirst("/sessions/".utf8.count), limits: limits)
            return
        }
        let questionMark = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.count
        let path = bytes[..<questionMark]
        let query = bytes[min(questionMark + 1, bytes.count)...]
        if path.elementsEqual("/proxy".utf8) {
            let (origin, directives) = try Self.proxyQuery(query, limits: limits)
            self = .proxy(origin, directives)
        } else if path.elementsEqual("/status".utf8) || path.elementsEqual("/debug/status".utf8) {
            self = .status
        } else if path.elementsEqual("/metrics".utf8) {
            self = .metrics
        } else if path.elementsEqual("/prefetch".utf8) {
            self = .prefetch
        } else if path.elementsEqual("/".utf8) {
            try Self.refuseForgottenProxyPath(query)
            self = .dashboard
        } else if path.elementsEqual("/entries".utf8) {
            self = try Self.entriesRoute(query)
        } else if path.elementsEqual("/entries/pin".utf8) {
            self = .pinEntry
        } else if path.elementsEqual("/entries/unpin".utf8) {
            self = .unpinEntry
        } else if path.elementsEqual("/evict".utf8) {
            self = .evict
        } else if path.elementsEqual("/downloads".utf8) || path.elementsEqual("/downloads/".utf8) {
            self = .downloads
        } else if path.starts(with: "/downloads/".utf8) {
            self = .download(try Self.identifier(path.dropFirst("/downloads/".utf8.count), what: "download"))
        } else if path.elementsEqual("/sessions".utf8) || path.elementsEqual("/sessions/".utf8) {
            self = .sessions
        } else if path.starts(with: "/sessions/".utf8) {
            self = try Self.sessionRoute(path.dropFirst("/sessions/".utf8.count), query: query, limits: limits)
        } else {
            throw ParseError(.notFound, "no such resource")
        }
    }

    /// Parses a request target given as a string.
    public init(parsing target: String, limits: RequestTargetLimits = RequestTargetLimits()) throws(ParseError) {
        try self.init(parsing: Array(target.utf8), limits: limits)
    }

    /// The longest session or download identifier.
    public static let maximumSessionIDLength = 64

    /// `ID`, `ID/index.m3u8` or `ID/proxy` (with its query).
    private static func sessionRoute(_ rest: ArraySlice<UInt8>, query: ArraySlice<UInt8>, limits: RequestTargetLimits) throws(ParseError) -> ProxyRoute {
        let slash = rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
        let id = try identifier(rest[..<slash], what: "session")
        let resource = rest[slash...].dropFirst()
        if slash == rest.endIndex || resource.isEmpty {
            return .session(id)
        }
        if resource.elementsEqual("index.m3u8".utf8) {
            return .sessionPlaylist(id, try directives(query))
        }
        if resource.elementsEqual("proxy".utf8) {
            let (origin, directives) = try proxyQuery(query, limits: limits)
            return .sessionProxy(id, origin, directives)
        }
        throw ParseError(.notFound, "no such session resource")
    }

    /// `ID/dash/<prefix>/<rest>`: a session's DASH path form.
    private static func sessionDASHRoute(_ rest: ArraySlice<UInt8>, limits: RequestTargetLimits) throws(ParseError) -> ProxyRoute {
        let slash = rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
        let id = try identifier(rest[..<slash], what: "session")
        return .sessionProxy(id, try dashOrigin(Array(rest[slash...]), limits: limits), DeliveryDirectives())
    }

    /// The `url` parameter and the delivery directives of a proxy query.
    private static func proxyQuery(_ query: ArraySlice<UInt8>, limits: RequestTargetLimits) throws(ParseError) -> (OriginURL, DeliveryDirectives) {
        var encodedURL: ArraySlice<UInt8>?
        var directives = DeliveryDirectives()
        try forEachParameter(in: query, limits: limits) { name, value throws(ParseError) in
            if name.elementsEqual("url".utf8) {
                guard encodedURL == nil else { throw ParseError(.malformed, "more than one url parameter") }
                encodedURL = value
            } else if DeliveryDirectives.isDirective(name) {
                try directives.append(name: name, value: value)
            } else {
                throw unknownParameter(name)
            }
        }
        guard let encodedURL, !encodedURL.isEmpty else { throw ParseError(.missing, "no url parameter") }
        return (try OriginURL(parsing: try percentDecoded(encodedURL), maximumLength: limits.maximumURLLength), directives)
    }

    /// The origin URL of a path-form DASH target: the first segment must decode to an http(s)
    /// URL ending in `/`, and the whole must be a valid ``OriginURL``.
    private static func dashOrigin(_ target: [UInt8], limits: RequestTargetLimits) throws(ParseError) -> OriginURL {
        guard let url = DASHProxyEndpoint.originURL(forRequestTarget: String(decoding: target, as: UTF8.self)) else {
            throw ParseError(.malformed, "a /dash/ target must be /dash/<percent-encoded http(s) URL ending in />/<rest>")
        }
        return try OriginURL(parsing: Array(url.utf8), maximumLength: limits.maximumURLLength)
    }

    /// `/entries?url=...` names one entry (and nothing else); any other query is a page.
    private static func entriesRoute(_ query: ArraySlice<UInt8>) throws(ParseError) -> ProxyRoute {
        let parameters = query.split(separator: UInt8(ascii: "&"))
        guard parameters.contains(where: { $0.starts(with: "url=".utf8) || $0.elementsEqual("url".utf8) }) else {
            return .entries(try EntriesPageRequest(query: query))
        }
        guard parameters.count == 1, let parameter = parameters.first else {
            throw ParseError(.unsupported, "/entries?url=... takes no other parameter: percent-encode the whole URL")
        }
        let decoded = try percentDecoded(parameter.dropFirst("url=".utf8.count))
        guard let key = String(validating: decoded, as: UTF8.self) else {
            throw ParseError(.malformed, "the url parameter is not UTF-8")
        }
        return .entry(try EntryRequest.key(key, field: "url"))
    }

    /// A session's or download's identifier: letters, digits, `-` and `_`.
    private static func identifier(_ bytes: ArraySlice<UInt8>, what: String) throws(ParseError) -> String {
        guard !bytes.isEmpty, bytes.count <= maximumSessionIDLength,
              bytes.allSatisfy({ ASCIIScanner.isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }) else {
            throw ParseError(.notFound, "no such \(what)")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `/?url=...` is a player given the proxy's address without `/proxy`: it would get the
    /// dashboard's HTML and fail to parse it as media. A `url` parameter on `/` is refused with
    /// the URL that was meant (other parameters leave the dashboard alone).
    private static func refuseForgottenProxyPath(_ query: ArraySlice<UInt8>) throws(ParseError) {
        let names = query.split(separator: UInt8(ascii: "&")).map { $0.prefix { $0 != UInt8(ascii: "=") } }
        guard names.contains(where: { $0.elementsEqual("url".utf8) }) else { return }
        let meant = query.count <= 200 && query.allSatisfy { $0 > 0x20 && $0 < 0x7F }
            ? "/proxy?" + String(decoding: query, as: UTF8.self) : "/proxy?url=<percent-encoded URL>"
        throw ParseError(.malformed, "/ is the dashboard and takes no url parameter: did you mean \(meant)?")
    }

    /// The delivery directives of a query that may hold nothing else.
    private static func directives(_ query: ArraySlice<UInt8>) throws(ParseError) -> DeliveryDirectives {
        var directives = DeliveryDirectives()
        try forEachParameter(in: query, limits: RequestTargetLimits()) { name, value throws(ParseError) in
            guard DeliveryDirectives.isDirective(name) else { throw unknownParameter(name) }
            try directives.append(name: name, value: value)
        }
        return directives
    }

    private static func forEachParameter(
        in query: ArraySlice<UInt8>, limits: RequestTargetLimits,
        _ body: (ArraySlice<UInt8>, ArraySlice<UInt8>) throws(ParseError) -> Void
    ) throws(ParseError) {
        var count = 0
        for parameter in query.split(separator: UInt8(ascii: "&")) {
            count += 1
            guard count <= limits.maximumQueryParameters else {
                throw ParseError(.tooMany, "more than \(limits.maximumQueryParameters) query parameters")
            }
            let equals = parameter.firstIndex(of: UInt8(ascii: "=")) ?? parameter.endIndex
            try body(parameter[..<equals], parameter[min(equals + 1, parameter.endIndex)...])
        }
    }

    private static func unknownParameter(_ name: ArraySlice<UInt8>) -> ParseError {
        let shown = String(decoding: name.prefix(40).map { $0 > 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
        return ParseError(.unsupported, """
            unknown parameter "\(shown)": percent-encode the whole origin URL, e.g. \
            /proxy?url=https%3A%2F%2Fcdn.example.com%2Fmaster.m3u8%3Fa%3D1%26b%3D2 for https://cdn.example.com/master.m3u8?a=1&b=2
            """)
    }

    /// Decodes `%XX` escapes; a `%` without two hex digits is malformed (a lenient decoder
    /// would let two spellings of one URL reach the origin differently from how they are keyed).
    static func percentDecoded(_ bytes: ArraySlice<UInt8>) throws(ParseError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "%") else {
                output.append(byte)
                index += 1
                continue
            }
            guard index + 2 < bytes.endIndex, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else {
                throw ParseError(.malformed, "bad percent escape in the url parameter")
            }
            output.append(high << 4 | low)
            index += 3
        }
        return output
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
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
