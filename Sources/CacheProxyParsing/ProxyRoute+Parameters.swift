#if DASH
import DASH
#endif

/// The parsers of what a route takes besides its path (its query, an identifier, a DASH
/// origin), which the entries of ``RouteTable`` call.
extension ProxyRoute {
    /// The longest session or download identifier.
    public static let maximumSessionIDLength = 64

    /// The `url` parameter and the delivery directives of a proxy query.
    static func proxyQuery(_ query: ArraySlice<UInt8>, limits: RequestTargetLimits) throws(ParseError) -> (OriginURL, DeliveryDirectives) {
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

    #if DASH
    /// The origin URL of a path-form DASH target (`/dash/<prefix>/<rest>`, the rest of the
    /// target, its query included): the first segment must decode to an http(s) URL ending in
    /// `/`, and the whole must be a valid ``OriginURL``.
    static func dashOrigin(_ target: some Collection<UInt8>, limits: RequestTargetLimits) throws(ParseError) -> OriginURL {
        guard let url = DASHProxyEndpoint.originURL(forRequestTarget: String(decoding: target, as: UTF8.self)) else {
            throw ParseError(.malformed, "a /dash/ target must be /dash/<percent-encoded http(s) URL ending in />/<rest>")
        }
        return try OriginURL(parsing: Array(url.utf8), maximumLength: limits.maximumURLLength)
    }
    #endif

    /// `/entries?url=...` names one entry (and nothing else); any other query is a page.
    static func entriesRoute(_ query: ArraySlice<UInt8>) throws(ParseError) -> ProxyRoute {
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
    static func identifier(_ bytes: ArraySlice<UInt8>, what: String) throws(ParseError) -> String {
        guard !bytes.isEmpty, bytes.count <= maximumSessionIDLength,
              bytes.allSatisfy({ ASCIIScanner.isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }) else {
            throw ParseError(.notFound, "no such \(what)")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `/?url=...` is a player given the proxy's address without `/proxy`: it would get the
    /// dashboard's HTML and fail to parse it as media. A `url` parameter on `/` is refused with
    /// the URL that was meant (other parameters leave the dashboard alone).
    static func refuseForgottenProxyPath(_ query: ArraySlice<UInt8>) throws(ParseError) {
        let names = query.split(separator: UInt8(ascii: "&")).map { $0.prefix { $0 != UInt8(ascii: "=") } }
        guard names.contains(where: { $0.elementsEqual("url".utf8) }) else { return }
        let meant = query.count <= 200 && query.allSatisfy { $0 > 0x20 && $0 < 0x7F }
            ? "/proxy?" + String(decoding: query, as: UTF8.self) : "/proxy?url=<percent-encoded URL>"
        throw ParseError(.malformed, "/ is the dashboard and takes no url parameter: did you mean \(meant)?")
    }

    /// The delivery directives of a query that may hold nothing else.
    static func directives(_ query: ArraySlice<UInt8>) throws(ParseError) -> DeliveryDirectives {
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

