/// The `Origin` header of a request: the scheme, host and port of the page that sent it
/// (RFC 6454), or `null`, the opaque origin of a sandboxed frame or a local file.
///
/// The scheme and host are lower-cased and the default port of http and https is dropped, so
/// two spellings of one origin compare equal.
public enum RequestOrigin: Sendable, Hashable, CustomStringConvertible {
    case opaque
    case tuple(scheme: String, authority: RequestAuthority)

    /// The longest origin read.
    public static let maximumLength = 400

    /// Parses `scheme://host[:port]` or `null`.
    ///
    /// - Throws: ``ParseError``: `ParseError.Code.tooLong` past ``maximumLength``,
    ///   `ParseError.Code.malformed` for anything but a serialized origin (a path, a bad
    ///   scheme, host or port).
    public init(parsing bytes: some Collection<UInt8>) throws(ParseError) {
        guard bytes.count <= Self.maximumLength else {
            throw ParseError(.tooLong, "an origin longer than \(Self.maximumLength) bytes")
        }
        let origin = Array(bytes)
        if origin.count == 4, origin.map(ASCIIScanner.lowercased).elementsEqual("null".utf8) {
            self = .opaque
            return
        }
        guard let colon = origin.firstIndex(of: UInt8(ascii: ":")), colon > 0,
              origin[colon...].starts(with: "://".utf8),
              ASCIIScanner.isAlphanumeric(origin[0]) && !ASCIIScanner.isDigit(origin[0]),
              origin[..<colon].allSatisfy({ ASCIIScanner.isAlphanumeric($0) || Array("+-.".utf8).contains($0) })
        else { throw ParseError(.malformed, "not a serialized origin (scheme://host[:port])") }
        let scheme = String(decoding: origin[..<colon].map(ASCIIScanner.lowercased), as: UTF8.self)
        let authority = try RequestAuthority(parsing: origin[(colon + 3)...])
        let defaultPort: Int? = switch scheme {
        case "http": 80
        case "https": 443
        default: nil
        }
        self = .tuple(scheme: scheme, authority: authority.port == defaultPort && defaultPort != nil
                      ? RequestAuthority(host: authority.host, port: nil) : authority)
    }

    /// Parses an origin given as a string.
    public init(parsing text: String) throws(ParseError) {
        try self.init(parsing: Array(text.utf8))
    }

    /// The serialized origin, as a response's `Access-Control-Allow-Origin` repeats it.
    public var description: String {
        switch self {
        case .opaque: "null"
        case .tuple(let scheme, let authority): scheme + "://" + authority.description
        }
    }
}
