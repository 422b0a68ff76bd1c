import NIOCore

/// Marks a request that asks to switch protocols as the connection's last: one whose
/// `Connection` field names `upgrade` beside an `Upgrade` field (as `curl --http2` sends for h2c,
/// or a WebSocket handshake), or a `CONNECT`. Its client may follow it with bytes of the other
/// protocol, which are no HTTP/1 request. The proxy speaks HTTP/1.1 only, so it answers such a
/// request as any other, with `Connection: close`, and the client opens a new connection for its
/// next one (as SwiftNIO's decoder, which read nothing more after such a request, made it do).
final class UpgradeRequestCloser: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = RequestPart
    typealias InboundOut = RequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data), Self.asksToSwitchProtocols(head) else {
            context.fireChannelRead(data)
            return
        }
        head.headers.replaceOrAdd(name: "connection", value: "close")
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    /// llhttp's rule, kept: SwiftNIO's decoder stopped after such a request.
    static func asksToSwitchProtocols(_ head: RequestHead) -> Bool {
        if head.method == .CONNECT { return true }
        guard head.headers.contains(name: "upgrade") else { return false }
        return head.headers.hasElement("upgrade", inField: "connection")
    }
}
