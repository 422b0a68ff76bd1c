/// What the proxy needs of an HTTP client to fetch from origins: one GET at a time, its answer's
/// head as soon as it arrives and its body as a stream, so that a fill stores each chunk while
/// the rest is on its way.
///
/// The proxy owns everything above the wire: redirects (a client follows none; ``OriginGuard``
/// checks every hop and sends it again), which connections an origin may get, timeouts for the
/// whole answer, cancellation (a cancelled task ends its request and its body stream), and the
/// words a failure is reported in (``OriginClientError``). Two implementations ship:
/// ``OriginClientKind/urlSession`` in this module (Foundation's `URLSession`, which comes with
/// the system on Apple platforms) and `.asyncHTTPClient` in `CacheProxyServer`.
public protocol OriginClient: Sendable {
    /// Sends `request` and returns once the answer's head arrived, with its body unread.
    ///
    /// A `3xx` comes back as it is. The body must be read to its end or dropped; dropping the
    /// response (or cancelling the task) ends the request.
    ///
    /// - Throws: ``OriginClientError`` for failures of the connection or the origin's timing;
    ///   `CancellationError` when the task was cancelled.
    func send(_ request: OriginRequest) async throws -> OriginResponse

    /// Ends every connection; no request may be sent afterwards.
    func shutdown() async
}

/// Which ``OriginClient`` a proxy makes for its lanes: a value of the configuration
/// (``CacheProxyConfiguration/originClient``), so the choice is the app's and the proxy still
/// makes one client per lane with the lane's settings.
public struct OriginClientKind: Sendable {
    /// A name for logs and status (`urlSession`, `asyncHTTPClient`).
    public let name: String
    /// Whether its clients call ``OriginClientSettings/checkPeer`` for every connection they
    /// make. A proxy listening beyond loopback refuses a kind that does not: there, a name that
    /// resolves to a private address only after the guard's lookup would reach the network behind
    /// the server.
    public let checksPeers: Bool
    private let make: @Sendable (OriginClientSettings) -> any OriginClient

    /// - Parameter make: makes a client for one lane; called once per lane when the proxy
    ///   starts.
    public init(name: String, checksPeers: Bool, make: @escaping @Sendable (OriginClientSettings) -> any OriginClient) {
        self.name = name
        self.checksPeers = checksPeers
        self.make = make
    }

    func makeClient(_ settings: OriginClientSettings) -> any OriginClient { make(settings) }
}
