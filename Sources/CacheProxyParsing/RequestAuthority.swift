/// A `host[:port]`, as a URL, a `Host` header, an `Origin` or the proxy's configuration names a
/// server (RFC 3986 section 3.2.2, RFC 9110 section 7.2):
/// the host lower-cased (an IPv6 literal keeps its brackets), the port when one is written.
///
/// ```swift
/// let authority = try RequestAuthority(parsing: "LocalHost:9000".utf8)   // localhost, 9000
/// ```
public struct RequestAuthority: Sendable, Hashable, CustomStringConvertible {
    public let host: String
    public let port: Int?

    /// The longest authority read: far above any real host name (253 bytes) and port.
    public static let maximumLength = 300

    public init(host: String, port: Int?) {
        self.host = host
        self.port = port
    }

    /// Parses `host`, `host:port` or `[IPv6]:port`.
    ///
    /// - Throws: ``ParseError``: `ParseError.Code.tooLong` past ``maximumLength``,
    ///   `ParseError.Code.missing` when empty, `ParseError.Code.malformed` for a byte a host
    ///   cannot hold, user information, or a bad port.
    public init(parsing bytes: some Collection<UInt8>) throws(ParseError) {
        guard bytes.count <= Self.maximumLength else {
            throw ParseError(.tooLong, "a host longer than \(Self.maximumLength) bytes")
        }
        let bytes = Array(bytes)
        guard !bytes.contains(UInt8(ascii: "@")) else { throw ParseError(.malformed, "a host with user information") }
        guard !bytes.isEmpty else { throw ParseError(.missing, "no host") }
        var hostEnd = bytes.count
        var portStart: Int?
        if bytes[0] == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")), close > 1 else {
                throw ParseError(.malformed, "unterminated IPv6 literal")
            }
            guard bytes[1..<close].allSatisfy({ ASCIIScanner.isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }) else {
                throw ParseError(.malformed, "bad IPv6 literal")
            }
            hostEnd = close + 1
            if hostEnd < bytes.count {
                guard bytes[hostEnd] == UInt8(ascii: ":") else { throw ParseError(.malformed, "bytes after an IPv6 literal") }
                portStart = hostEnd + 1
            }
        } else {
            if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
                hostEnd = colon
                portStart = colon + 1
            }
            guard hostEnd > 0, bytes[..<hostEnd].allSatisfy(Self.isRegisteredNameByte) else {
                throw ParseError(.malformed, "bad host")
            }
        }
        if let portStart {
            let digits = bytes[portStart...]
            guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy(ASCIIScanner.isDigit),
                  let value = Int(String(decoding: digits, as: UTF8.self)), value > 0, value <= 65535 else {
                throw ParseError(.malformed, "bad port")
            }
            port = value
        } else {
            port = nil
        }
        host = String(decoding: bytes[..<hostEnd].map(ASCIIScanner.lowercased), as: UTF8.self)
    }

    /// Whether the host is written with letters, digits, `-`, `.`, `_` and `~` only (or is an
    /// IPv6 literal): a name that can be written into a URL as it is, with nothing to escape.
    public var isPlainName: Bool {
        host.hasPrefix("[") || host.utf8.allSatisfy { ASCIIScanner.isAlphanumeric($0) || Array("-._~".utf8).contains($0) }
    }

    public var description: String { host + (port.map { ":\($0)" } ?? "") }

    /// Whether `other` names this authority: the same host, and the same port or, when this one
    /// names none, any port. `other` without a port names `defaultPort` (80: the proxy speaks
    /// plain HTTP).
    public func matches(_ other: RequestAuthority, defaultPort: Int = 80) -> Bool {
        host == other.host && (port == nil || port == (other.port ?? defaultPort))
    }

    /// RFC 3986 reg-name: unreserved, percent-encoded and sub-delimiter bytes.
    private static func isRegisteredNameByte(_ byte: UInt8) -> Bool {
        ASCIIScanner.isAlphanumeric(byte) || Array("-._~%!$&'()*+,;=".utf8).contains(byte)
    }
}
