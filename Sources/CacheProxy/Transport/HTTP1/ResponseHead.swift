/// A response's status line and header fields.
struct ResponseHead: Sendable, Hashable {
    var version: ProtocolVersion
    var status: ResponseStatus
    var headers: HeaderFields

    init(version: ProtocolVersion, status: ResponseStatus, headers: HeaderFields = HeaderFields()) {
        self.version = version
        self.status = status
        self.headers = headers
    }

    /// Whether the connection stays open after this response, as its `Connection` field says.
    var isKeepAlive: Bool {
        RequestHead.asksToKeepAlive(version: version, headers: headers)
    }
}
