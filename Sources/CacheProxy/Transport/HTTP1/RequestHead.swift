/// A request's line and header fields.
struct RequestHead: Sendable, Hashable {
    var method: RequestMethod
    /// The request target, as sent.
    var uri: String
    var version: ProtocolVersion
    var headers: HeaderFields
    init(method: RequestMethod, uri: String, version: ProtocolVersion, headers: HeaderFields = HeaderFields()) {
        self.method = method
        self.uri = uri
        self.version = version
        self.headers = headers
    }

    /// Whether the connection stays open after the response, as the request asks.
    var isKeepAlive: Bool {
        Self.asksToKeepAlive(version: version, headers: headers)
    }

    /// RFC 9112 section 9.3, as llhttp reads it: HTTP/1.1 stays open unless a `Connection`
    /// element is `close`; HTTP/1.0 closes unless one is `keep-alive`.
    static func asksToKeepAlive(version: ProtocolVersion, headers: HeaderFields) -> Bool {
        version.minor >= 1 ? !headers.hasElement("close", inField: "connection") : headers.hasElement("keep-alive", inField: "connection")
    }
}
