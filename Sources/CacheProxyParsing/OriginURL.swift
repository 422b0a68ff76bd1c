/// An absolute http or https URL that the proxy may fetch, validated from untrusted input.
///
/// Only printable ASCII is accepted (URLs in playlists and `url=` parameters are
/// percent-encoded), user information is refused (it would let a request smuggle
/// credentials), the scheme and host are lower-cased, a default port is dropped and a fragment
/// is removed. ``string`` is the URL the proxy fetches and the cache key is made from.
public struct OriginURL: Sendable, Hashable, CustomStringConvertible {
    public enum Scheme: String, Sendable, Hashable {
        case http
        case https
    }

    public let scheme: Scheme
    /// The host, lower-cased; an IPv6 literal keeps its brackets.
    public let host: String
    /// The port, when the URL names one other than the scheme's default.
    public let port: Int?
    /// The path and query as written (`/` when the URL had no path).
    public let pathAndQuery: String
    /// The whole URL, normalized as described above.
    public let string: String

    /// The longest URL accepted by default: 8 KiB, what common servers accept in a request line.
    public static let defaultMaximumLength = 8192

    /// Parses and validates an absolute URL.
    ///
    /// - Throws: ``ParseError`` with `ParseError.Code.unsupported` for schemes other than
    ///   http and https and for user information, `ParseError.Code.tooLong` past
    ///   `maximumLength`, `ParseError.Code.missing` without a host, and
    ///   `ParseError.Code.malformed` for bytes outside printable ASCII, a bad host or port.
    public init(parsing input: some Collection<UInt8>, maximumLength: Int = OriginURL.defaultMaximumLength) throws(ParseError) {
        guard input.count <= maximumLength else { throw ParseError(.tooLong, "URL longer than \(maximumLength) bytes") }
        var bytes = Array(input)
        guard bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw ParseError(.malformed, "URL holds white space, control or non-ASCII bytes")
        }
        if let hash = bytes.firstIndex(of: UInt8(ascii: "#")) { bytes.removeSubrange(hash...) }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
              bytes.count >= colon + 3, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/") else {
            throw ParseError(.malformed, "not an absolute URL")
        }
        let schemeText = String(decoding: bytes[..<colon].map(ASCIIScanner.lowercased), as: UTF8.self)
        guard let scheme = Scheme(rawValue: schemeText) else { throw ParseError(.unsupported, "scheme \(schemeText) is not http or https") }
        let authorityStart = colon + 3
        let authorityEnd = bytes[authorityStart...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? bytes.count
        let authority = Array(bytes[authorityStart..<authorityEnd])
        guard !authority.contains(UInt8(ascii: "@")) else { throw ParseError(.unsupported, "URLs with user information are refused") }
        let hostAndPort: RequestAuthority
        do {
            hostAndPort = try RequestAuthority(parsing: authority)
        } catch {
            throw error.code == .missing ? ParseError(.missing, "URL without a host") : error
        }
        // A host with percent-encoding or sub-delimiters is no DNS name, and the HTTP client
        // (Foundation's URL) decodes `%xx`: it would connect to another host than the one the
        // allow-list and the origin guard judged.
        guard hostAndPort.isPlainName else { throw ParseError(.malformed, "a host with bytes a host name cannot hold") }
        let (host, port) = (hostAndPort.host, hostAndPort.port)
        let defaultPort = scheme == .http ? 80 : 443
        let rest = String(decoding: bytes[authorityEnd...], as: UTF8.self)
        self.init(scheme: scheme, host: host, port: port == defaultPort ? nil : port, pathAndQuery: rest.hasPrefix("/") ? rest : "/" + rest)
    }

    /// Parses a URL given as a string; see ``init(parsing:maximumLength:)-(Collection<UInt8>,_)``.
    public init(parsing input: String, maximumLength: Int = OriginURL.defaultMaximumLength) throws(ParseError) {
        try self.init(parsing: Array(input.utf8), maximumLength: maximumLength)
    }

    /// `host` or `host:port`: the origin a circuit breaker and an allow-list are about.
    public var authority: String { host + (port.map { ":\($0)" } ?? "") }
    /// The same URL with `query` (`name=value&...`, already encoded) appended to its query;
    /// the URL itself when `query` is empty.
    public func appendingQuery(_ query: String) -> OriginURL {
        guard !query.isEmpty else { return self }
        let separator = pathAndQuery.utf8.contains(UInt8(ascii: "?")) ? "&" : "?"
        return OriginURL(scheme: scheme, host: host, port: port, pathAndQuery: pathAndQuery + separator + query)
    }

    private init(scheme: Scheme, host: String, port: Int?, pathAndQuery: String) {
        self.scheme = scheme
        self.host = host
        self.port = port
        self.pathAndQuery = pathAndQuery
        string = scheme.rawValue + "://" + host + (port.map { ":\($0)" } ?? "") + pathAndQuery
    }

    /// The last path segment's extension, lower-cased (`m3u8` for `/a/b.m3u8?x=1`).
    public var pathExtension: String? {
        let path = pathAndQuery.prefix { $0 != "?" }
        guard let slash = path.lastIndex(of: "/") else { return nil }
        let name = path[path.index(after: slash)...]
        guard let dot = name.lastIndex(of: ".") else { return nil }
        let ext = name[name.index(after: dot)...]
        return ext.isEmpty ? nil : ext.lowercased()
    }

    public var description: String { string }
}
