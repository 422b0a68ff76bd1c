import NIOCore
import NIOHTTP1

/// Closes a connection that takes longer than `timeout` to send a request head, counted from
/// the connection's start and from the end of each response: it stops slow-header clients and
/// is the keep-alive idle timeout.
final class RequestHeadTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let timeout: TimeAmount
    /// When the connection started waiting for a request head; nil while one is being served.
    private var waitingSince: NIODeadline?
    /// At most one timer per connection: it re-arms itself while the connection keeps serving
    /// requests, instead of one timer being scheduled and cancelled per request.
    private var timer: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        waitingSince = nil
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) { disarm() }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { arm(context) }
        context.write(data, promise: promise)
    }

    private func arm(_ context: ChannelHandlerContext) {
        waitingSince = .now()
        if timer == nil { schedule(context, at: .now() + timeout) }
    }

    private func disarm() {
        waitingSince = nil
    }

    private func schedule(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = loopBound.value
            handler.timer = nil
            guard let since = handler.waitingSince else { return }
            if NIODeadline.now() >= since + handler.timeout {
                context.close(promise: nil)
            } else {
                handler.schedule(context, at: since + handler.timeout)
            }
        }
    }
}
