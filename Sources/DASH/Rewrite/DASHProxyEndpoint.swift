/// The proxy that rewritten MPDs route through, and the path form of its DASH URLs.
///
/// A DASH template such as `chunk-$RepresentationID$-$Number%05d$.m4s` is expanded by the player,
/// so it must stay literal in the URL the player sees: the query form `/proxy?url=<encoded URL>`
/// would percent-encode its `$`s. The path form keeps the template in the path:
///
///     <endpoint>/dash/<percent-encoded origin prefix>/<rest>
///
/// - The origin prefix is the origin URL up to and including the last `/` of its path before the
///   first `$` (`https://cdn.example.com/video/`), percent-encoded as one path segment (every
///   byte but `A-Z a-z 0-9 - . _ ~` becomes `%XX`, so it holds no `/`, `$`, `?` or `#`).
/// - The rest is the remainder of the origin URL as written: the path after the prefix, the query
///   and fragment (`chunk-$RepresentationID$-$Number%05d$.m4s?token=1`).
///
/// Mapping back (``originURL(for:)``) decodes the first segment and appends the rest, so a URL the
/// player builds from a template, or resolves relative to a proxied BaseURL or to the proxied
/// MPD's own URL, maps to the origin URL it would have requested from the origin: relative
/// references in an MPD served at its path-form URL need no rewriting at all.
public struct DASHProxyEndpoint: Hashable, Sendable, CustomStringConvertible {
    /// `scheme://host:port`, without a trailing slash.
    let origin: String

    /// The path every DASH URL of the proxy starts with.
    public static let pathPrefix = "/dash/"

    /// `http://127.0.0.1:PORT`, SparseCache's proxy on this machine.
    public init(port: UInt16) {
        origin = "http://127.0.0.1:\(port)"
    }

    /// An endpoint such as `http://127.0.0.1:8080`: an http URL with a host and no path, query or
    /// fragment (a trailing `/` is dropped). Nil for anything else, or for bytes that would need
    /// escaping in XML (control characters, white space, quotes, `<`, `>`, `&`, non-ASCII).
    public init?(_ endpoint: String) {
        var text = endpoint
        while text.hasSuffix("/") { text.removeLast() }
        let parts = URLParts(Array(text.utf8))
        guard parts.isHTTP, let authority = parts.authority, !authority.isEmpty, parts.path.isEmpty,
              parts.query == nil, parts.fragment == nil,
              text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x27 && $0 != 0x3C && $0 != 0x3E && $0 != 0x26 })
        else { return nil }
        origin = text
    }

    /// An endpoint under a path, such as `http://127.0.0.1:8080/sessions/s1` (a playback
    /// session's own URLs, which the proxy counts as the session's): path-form URLs are then
    /// `<endpoint>/dash/<prefix>/<rest>`, and ``originURL(for:)`` takes them back. The path's
    /// segments may hold only unreserved bytes (`A-Z a-z 0-9 - . _ ~`), and none may be empty,
    /// `.` or `..`, so that resolving a player's reference keeps it. Nil otherwise, or when the
    /// URL without its path is not an endpoint ``init(_:)`` accepts.
    public init?(under base: String) {
        var text = Substring(base)
        while text.hasSuffix("/") { text.removeLast() }
        guard let schemeEnd = text.firstRange(of: "://") else { return nil }
        let pathStart = text[schemeEnd.upperBound...].firstIndex(of: "/") ?? text.endIndex
        guard let root = DASHProxyEndpoint(String(text[..<pathStart])) else { return nil }
        let path = text[pathStart...]
        for segment in path.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            guard segment.utf8.allSatisfy(PathSegmentEncoding.isUnreserved), !segment.isEmpty, segment != ".", segment != ".." else { return nil }
        }
        origin = root.origin + path
    }

    /// The path-form URL of an absolute origin URL, or nil when it cannot have one: it is not
    /// http(s) with a host, or a `$` stands before its path (a template identifier there could
    /// not stay literal).
    public func url(for originURL: String) -> String? {
        guard let (prefix, rest) = Self.split(originURL) else { return nil }
        return origin + Self.pathPrefix + PathSegmentEncoding.encode(prefix) + "/" + rest
    }

    /// The path-form request target (what the proxy receives: `/dash/<prefix>/<rest>`).
    public func requestTarget(for originURL: String) -> String? {
        guard let (prefix, rest) = Self.split(originURL) else { return nil }
        return Self.pathPrefix + PathSegmentEncoding.encode(prefix) + "/" + rest
    }

    /// The origin URL a path-form URL stands for: `url` may be absolute (it must then start
    /// with this endpoint) or a request target starting with `/dash/`. Nil when it is neither,
    /// or when its first segment is not a percent-encoded http(s) URL prefix ending in `/`.
    public func originURL(for url: String) -> String? {
        var target = Substring(url)
        if target.hasPrefix(origin + Self.pathPrefix) {
            target = target.dropFirst(origin.utf8.count)
        }
        return Self.originURL(forRequestTarget: target)
    }

    /// The origin URL of a request target `/dash/<prefix>/<rest>`, whatever endpoint served it.
    public static func originURL(forRequestTarget target: some StringProtocol) -> String? {
        guard target.hasPrefix(pathPrefix) else { return nil }
        let afterPrefix = target.dropFirst(pathPrefix.utf8.count)
        guard let slash = afterPrefix.firstIndex(of: "/"),
              let prefix = PathSegmentEncoding.decode(afterPrefix[..<slash]) else { return nil }
        let parts = URLParts(Array(prefix.utf8))
        guard parts.isHTTP, parts.authority != nil, parts.query == nil, parts.fragment == nil,
              parts.path.last == UInt8(ascii: "/") else { return nil }
        return prefix + afterPrefix[afterPrefix.index(after: slash)...]
    }

    /// The origin URL with an empty http(s) path written as `/` (RFC 9110 section 4.2.3: they are
    /// the same resource), as the path form gives it back.
    public static func normalized(_ originURL: String) -> String {
        var parts = URLParts(Array(originURL.utf8))
        guard parts.isHTTP, parts.authority != nil, parts.path.isEmpty else { return originURL }
        parts.path = [UInt8(ascii: "/")][...]
        return String(decoding: parts.recomposed(), as: UTF8.self)
    }

    /// Splits an origin URL into its prefix (through the last `/` of the path before any `$`)
    /// and the rest.
    private static func split(_ originURL: String) -> (prefix: String, rest: String)? {
        var parts = URLParts(Array(originURL.utf8))
        guard parts.isHTTP, let authority = parts.authority, !authority.isEmpty,
              !authority.contains(UInt8(ascii: "$")), parts.scheme?.contains(UInt8(ascii: "$")) != true else { return nil }
        if parts.path.isEmpty { parts.path = [UInt8(ascii: "/")][...] }
        let path = parts.path
        let stop = path.firstIndex(of: UInt8(ascii: "$")) ?? path.endIndex
        guard let slash = path[..<stop].lastIndex(of: UInt8(ascii: "/")) else { return nil }
        var prefixParts = parts
        prefixParts.path = path[...slash]
        prefixParts.query = nil
        prefixParts.fragment = nil
        var rest = Array(path[(slash + 1)...])
        if let query = parts.query { rest += [UInt8(ascii: "?")] + query }
        if let fragment = parts.fragment { rest += [UInt8(ascii: "#")] + fragment }
        return (String(decoding: prefixParts.recomposed(), as: UTF8.self), String(decoding: rest, as: UTF8.self))
    }

    public var description: String { origin }
}

/// Percent-encoding of one path segment: every byte outside RFC 3986's unreserved set.
enum PathSegmentEncoding {
    /// RFC 3986's unreserved bytes: `A-Z a-z 0-9 - . _ ~`.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || (byte >= 0x30 && byte <= 0x39)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
    }

    static func encode(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                output.append(byte)
            } else {
                output += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes `%XX`; nil for a malformed escape, a byte that should have been escaped, or a
    /// result that is not UTF-8.
    static func decode(_ segment: some StringProtocol) -> String? {
        var output: [UInt8] = []
        var bytes = segment.utf8[...]
        while let byte = bytes.first {
            bytes = bytes.dropFirst()
            guard byte == UInt8(ascii: "%") else {
                guard byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "/") else { return nil }
                output.append(byte)
                continue
            }
            guard let high = bytes.first.flatMap({ XMLTokenizer.digitValue($0, hex: true) }),
                  let low = bytes.dropFirst().first.flatMap({ XMLTokenizer.digitValue($0, hex: true) })
            else { return nil }
            output.append(UInt8(high << 4 | low))
            bytes = bytes.dropFirst(2)
        }
        return String(validating: output, as: UTF8.self)
    }
}
