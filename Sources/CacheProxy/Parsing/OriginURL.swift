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
    /// - Throws: ``ParseError`` with ``ParseError/Code/unsupported`` for schemes other than
    ///   http and https and for user information, ``ParseError/Code/tooLong`` past
    ///   `maximumLength`, ``ParseError/Code/missing`` without a host, and
    ///   ``ParseError/Code/malformed`` for bytes outside printable ASCII, a bad host or port.
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
        let (host, port) = try Self.splitAuthority(authority)
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

    /// Splits `host[:port]` (an IPv6 literal in brackets), lower-casing the host.
    static func splitAuthority(_ authority: [UInt8]) throws(ParseError) -> (String, Int?) {
        guard !authority.isEmpty else { throw ParseError(.missing, "URL without a host") }
        var hostEnd = authority.count
        var portStart: Int?
        if authority[0] == UInt8(ascii: "[") {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")), close > 1 else {
                throw ParseError(.malformed, "unterminated IPv6 literal")
            }
            guard authority[1..<close].allSatisfy({ isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }) else {
                throw ParseError(.malformed, "bad IPv6 literal")
            }
            hostEnd = close + 1
            if hostEnd < authority.count {
                guard authority[hostEnd] == UInt8(ascii: ":") else { throw ParseError(.malformed, "bytes after an IPv6 literal") }
                portStart = hostEnd + 1
            }
        } else {
            if let colon = authority.firstIndex(of: UInt8(ascii: ":")) {
                hostEnd = colon
                portStart = colon + 1
            }
            guard hostEnd > 0, authority[..<hostEnd].allSatisfy(isRegisteredNameByte) else {
                throw ParseError(.malformed, "bad host")
            }
        }
        var port: Int?
        if let portStart {
            let digits = authority[portStart...]
            guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                  let value = Int(String(decoding: digits, as: UTF8.self)), value > 0, value <= 65535 else {
                throw ParseError(.malformed, "bad port")
            }
            port = value
        }
        let host = String(decoding: authority[..<hostEnd].map(ASCIIScanner.lowercased), as: UTF8.self)
        return (host, port)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
    }

    /// RFC 3986 reg-name: unreserved, percent-encoded and sub-delimiter bytes.
    private static func isRegisteredNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            Array("-._~%!$&'()*+,;=".utf8).contains(byte)
        }
    }
}
