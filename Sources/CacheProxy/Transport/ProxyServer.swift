import CacheProxyParsing
import NIOCore
import NIOPosix

/// The listening socket and the pipeline every connection gets.
enum ProxyServer {
    typealias Connection = NIOAsyncChannel<RoutedRequestPart, ResponsePart>
    typealias Listener = NIOAsyncChannel<Connection, Never>
    typealias Accepted = AcceptedConnections<RoutedRequestPart, ResponsePart>

    /// Binds the listening socket; each connection is admitted to `accepted` as it is made.
    static func bind(context: ProxyContext, group: any EventLoopGroup, accepted: Accepted) async throws -> Listener {
        let configuration = context.configuration
        let policy = try configuration.security.requestPolicy(publicURL: configuration.publicURL)
        // The per-field limit also bounds the target: above the longest the routes take, so
        // that a long one gets the router's 414, not the codec's 400.
        let limits = HTTP1RequestHeadParser.Limits(
            maximumFieldSize: max(configuration.limits.requestTarget.maximumLength + 32, 1024),
            maximumHeadBytes: configuration.limits.maximumHeaderBytes, maximumFieldCount: configuration.limits.maximumHeaderCount)
        let headTimeout = TimeAmount(configuration.timeouts.requestHead)
        let stallTimeout = TimeAmount(configuration.timeouts.clientWriteStall)
        let chunk = max(configuration.responseChunkSize, 64 * 1024)
        let loopbackSendBuffer = configuration.loopbackSendBuffer.map { SocketOptionValue(clamping: $0) }
        return try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelOption(.maxMessagesPerRead, value: 16)
            // Above a response chunk, so a cached range of up to one chunk is written without
            // the connection turning unwritable and back; low enough to bound a slow client.
            .childChannelOption(.writeBufferWaterMark, value: .init(low: chunk, high: 2 * chunk))
            .bind(host: configuration.host, port: configuration.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let loopbackSendBuffer, let peer = channel.remoteAddress, CacheProxy.isLoopback(peer) {
                        // A connection keeps the kernel's buffer when this fails: slower, not wrong.
                        try? channel.syncOptions?.setOption(.socketOption(.so_sndbuf), value: loopbackSendBuffer)
                    }
                    let pipeline = channel.pipeline.syncOperations
                    let fileHandles = ConnectionFileHandles()
                    // The connection's targets are parsed once, by whichever handler reads one first.
                    let routes = RouteMemo(limits: configuration.limits.requestTarget)
                    let responder = HitResponder(environment: context.hits, fileHandles: fileHandles, routes: routes)
                    context.hits.heldFiles.add(responder, on: channel.eventLoop)
                    let fence = ResponseFence()
                    let gate = RequestGate(policy: policy, channel: channel)
                    let rawHits = RawHitHandler(
                        responder: responder, fence: fence, gate: gate, counters: context.counters,
                        headLimit: min(limits.maximumHeadBytes, 8192), fieldLimit: limits.maximumFieldCount)
                    // First: a hit read and answered there passes through no other handler. Its
                    // answers are bytes, and its file regions are the connection's shared
                    // descriptor's, which `ConnectionFileHandles` would pass on untouched.
                    try pipeline.addHandler(rawHits)
                    try pipeline.addHandler(WriteStallHandler(timeout: stallTimeout, counters: context.counters))
                    try pipeline.addHandler(fileHandles)
                    try pipeline.addHandler(HTTP1ServerCodec(limits: limits))
                    try pipeline.addHandler(UpgradeRequestCloser())
                    // Below every handler that answers, so that it sees every response end.
                    try pipeline.addHandler(RequestHeadTimeoutHandler(timeout: headTimeout, fence: fence))
                    // Before every handler that answers a request (new routes are guarded by default).
                    try pipeline.addHandler(RequestGuardHandler(gate: gate, routes: routes))
                    try pipeline.addHandler(CacheHitHandler(responder: responder, routes: routes))
                    context.connections.add(channel)
                    return accepted.admit(try Connection(wrappingChannelSynchronously: channel))
                }
            }
    }
}
