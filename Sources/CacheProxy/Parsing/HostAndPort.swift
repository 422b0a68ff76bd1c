/// The authority of a URL or the value of a `Host` header: `host` or `host:port`, where host is
/// a registered name, an IPv4 address or a bracketed IPv6 literal (RFC 3986 section 3.2.2,
/// RFC 9110 section 7.2). User information is not part of it.
public struct HostAndPort: Sendable, Hashable, CustomStringConvertible {
    /// The host, lower-cased; an IPv6 literal keeps its brackets.
    public let host: String
    /// The port, when one is written (1...65535).
    public let port: Int?

    /// Parses `host[:port]`.
    ///
    /// - Throws: ``ParseError`` with ``ParseError/Code/missing`` for an empty value and
    ///   ``ParseError/Code/malformed`` for a bad host, IPv6 literal or port.
    public init(parsing authority: some Collection<UInt8>) throws(ParseError) {
        let bytes = Array(authority)
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

    /// `host` or `host:port`.
    public var description: String { host + (port.map { ":\($0)" } ?? "") }

    /// RFC 3986 reg-name: unreserved, percent-encoded and sub-delimiter bytes.
    private static func isRegisteredNameByte(_ byte: UInt8) -> Bool {
        ASCIIScanner.isAlphanumeric(byte) || Array("-._~%!$&'()*+,;=".utf8).contains(byte)
    }
}
