import NIOCore

/// Marks a request that the decoder takes for the start of another protocol as the connection's
/// last. After such a request (one whose `Connection` field names `upgrade` beside an `Upgrade`
/// field, as `curl --http2` sends for h2c, or a `CONNECT`), the decoder reads nothing more on
/// that connection: a next request would wait unanswered until the head timeout. The proxy speaks
/// HTTP/1.1 only, so it answers such a request as any other, with `Connection: close`, and the
/// client opens a new connection for its next one.
final class UpgradeRequestCloser: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = RequestPart
    typealias InboundOut = RequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data), Self.stopsTheDecoder(head) else {
            context.fireChannelRead(data)
            return
        }
        head.headers.replaceOrAdd(name: "connection", value: "close")
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    /// llhttp's rule for a request after which it parses no more.
    static func stopsTheDecoder(_ head: RequestHead) -> Bool {
        if head.method == .CONNECT { return true }
        guard head.headers.contains(name: "upgrade") else { return false }
        return head.headers.hasElement("upgrade", inField: "connection")
    }
}
