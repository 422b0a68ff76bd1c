/// Why an ``OriginClient`` got no answer, or no whole one, in kinds the proxy words for its
/// users (``OriginFailureText``): each client maps its own library's errors onto these, so the
/// proxy's messages and its breaker do not depend on which client runs.
public struct OriginClientError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The host name did not resolve.
        case unresolvable
        /// Nothing listens on the port.
        case connectionRefused
        /// No route to the host.
        case unreachable
        /// The connection was not accepted within the connect timeout.
        case connectTimeout
        /// The answer's head did not come before the request's deadline.
        case responseTimeout
        /// The body was silent for longer than the read timeout.
        case readTimeout
        /// The origin closed the connection before its answer ended.
        case connectionClosed
        /// The TLS handshake failed (a plain-http server on an https URL, a certificate).
        case tlsFailed
        /// ``OriginClientSettings/checkPeer`` refused the connection.
        case peerRefused
        /// Anything else.
        case other
    }

    public var kind: Kind
    /// The client library's own description, for the debug log only: it may name types,
    /// system calls and build paths.
    public var detail: String
    /// What ``OriginClientSettings/checkPeer`` returned, for ``Kind/peerRefused``; the system's
    /// error (SwiftNIO's `IOError`), when there is one, for ``Kind/other``.
    public var underlying: (any Error)?

    public init(_ kind: Kind, detail: String = "", underlying: (any Error)? = nil) {
        self.kind = kind
        self.detail = detail
        self.underlying = underlying
    }

    public var description: String { detail.isEmpty ? "\(kind)" : "\(kind): \(detail)" }
}
