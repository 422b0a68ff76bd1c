import NIOCore

/// Answers cache hits among the requests the HTTP/1 codec delivers (those
/// `RawHitHandler` did not answer from the raw bytes), through the connection's `HitResponder`.
/// Everything else (misses, playlists, larger unverified bodies, errors, `/status`) goes on to
/// the asynchronous handler behind it, its head with the route the connection parsed for it
/// (``RoutedRequest``).
///
/// It sits behind `HTTP1ServerCodec`, which hands over a request only once the
/// previous response has ended, so answers from here and from behind never interleave.
final class CacheHitHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = RequestPart
    typealias InboundOut = RoutedRequestPart
    typealias OutboundOut = ResponsePart

    private enum State {
        case idle
        case forwarding
        /// The answer, sent when the request's end arrives (a file body's handle belongs to
        /// `ConnectionFileHandles`).
        case answering(HitResponder.Answer)
    }

    private let responder: HitResponder
    private let routes: RouteMemo
    private var state = State.idle

    init(responder: HitResponder, routes: RouteMemo) {
        self.responder = responder
        self.routes = routes
    }

    func channelInactive(context: ChannelHandlerContext) {
        state = .idle
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch (unwrapInboundIn(data), state) {
        case (.head(let head), _):
            if let answer = responder.answer(
                method: head.method, uri: head.uri, version: head.version, keepAlive: head.isKeepAlive,
                range: head.headers.first(name: "range"), ifRange: head.headers.first(name: "if-range"),
                allocator: context.channel.allocator)
            {
                state = .answering(answer)
            } else {
                state = .forwarding
                let routed = RoutedRequest(head: head, route: routes.route(for: head.uri))
                context.fireChannelRead(wrapInboundOut(.head(routed)))
            }
        case (.body, .answering):
            break  // a GET's body means nothing here
        case (.end, .answering(let answer)):
            state = .idle
            context.write(wrapOutboundOut(.head(answer.head)), promise: nil)
            if let body = answer.body { context.write(wrapOutboundOut(.body(body)), promise: nil) }
            context.writeLastAndFlush(wrapOutboundOut(.end(nil)), keepAlive: answer.keepAlive, logging: answer.log)
        case (.end(let trailers), _):
            state = .idle
            context.fireChannelRead(wrapInboundOut(.end(trailers)))
        case (.body(let bytes), _):
            context.fireChannelRead(wrapInboundOut(.body(bytes)))
        }
    }
}
