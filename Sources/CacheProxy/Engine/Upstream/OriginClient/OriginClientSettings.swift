public import NIOCore

/// What a lane's ``OriginClient`` is made with.
public struct OriginClientSettings: Sendable {
    /// How long making a connection may take.
    public var connectTimeout: Duration
    /// How long the body may be silent between two chunks.
    public var readTimeout: Duration
    /// Connections kept to one origin at most; more requests wait for one.
    public var connectionsPerHost: Int
    /// The event loops of the proxy, for clients built on SwiftNIO.
    public var eventLoopGroup: any EventLoopGroup
    /// Judges the peer a new connection actually reached (the check that catches a name that
    /// resolved elsewhere the time before): an error refuses the connection, which the client
    /// closes at once and reports with that error. A client that cannot see its connections'
    /// addresses does not call it; ``OriginGuard`` has checked every address the host resolved
    /// to before the request.
    public var checkPeer: @Sendable (_ remote: SocketAddress, _ local: SocketAddress?) -> (any Error)?

    public init(
        connectTimeout: Duration, readTimeout: Duration, connectionsPerHost: Int, eventLoopGroup: any EventLoopGroup,
        checkPeer: @escaping @Sendable (_ remote: SocketAddress, _ local: SocketAddress?) -> (any Error)? = { _, _ in nil }
    ) {
        self.connectTimeout = connectTimeout
        self.readTimeout = readTimeout
        self.connectionsPerHost = connectionsPerHost
        self.eventLoopGroup = eventLoopGroup
        self.checkPeer = checkPeer
    }
}
