/// A `host[:port]`, as a `Host` header, an `Origin` or the proxy's configuration names a server:
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
    /// - Throws: ``ParseError``: ``ParseError/Code/tooLong`` past ``maximumLength``,
    ///   ``ParseError/Code/missing`` when empty, ``ParseError/Code/malformed`` for a byte a host
    ///   cannot hold, user information, or a bad port.
    public init(parsing bytes: some Collection<UInt8>) throws(ParseError) {
        guard bytes.count <= Self.maximumLength else {
            throw ParseError(.tooLong, "a host longer than \(Self.maximumLength) bytes")
        }
        let authority = Array(bytes)
        guard !authority.contains(UInt8(ascii: "@")) else { throw ParseError(.malformed, "a host with user information") }
        (host, port) = try OriginURL.splitAuthority(authority)
    }

    public var description: String { host + (port.map { ":\($0)" } ?? "") }

    /// Whether `other` names this authority: the same host, and the same port or, when this one
    /// names none, any port. `other` without a port names `defaultPort` (80: the proxy speaks
    /// plain HTTP).
    public func matches(_ other: RequestAuthority, defaultPort: Int = 80) -> Bool {
        host == other.host && (port == nil || port == (other.port ?? defaultPort))
    }
}
