public import NIOCore

/// One GET to an origin, as ``OriginClient/send(_:)`` receives it.
public struct OriginRequest: Sendable {
    /// The absolute `http` or `https` URL.
    public var url: String
    /// Every header field to send (`Range`, validators, credentials); the client adds `Host`
    /// and what its framing needs, nothing else.
    public var headers: HeaderFields
    /// When the answer's head must have arrived; past it the client gives up with
    /// ``OriginClientError/Kind/responseTimeout``.
    public var deadline: NIODeadline

    public init(url: String, headers: HeaderFields = HeaderFields(), deadline: NIODeadline) {
        self.url = url
        self.headers = headers
        self.deadline = deadline
    }
}
