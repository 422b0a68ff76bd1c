import NIOCore
import NIOHTTP1

/// Closes a connection that takes longer than `timeout` to send a request head, counted from
/// the connection's start and from the moment each response has been written out: it stops
/// slow-header clients and is the keep-alive idle timeout.
///
/// The wait starts when the response's end has left, not when it was queued: a cached body
/// goes out as one file region behind which the end is queued at once, and a large one can take
/// a slow client far longer than the timeout.
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
    /// Request heads received so far: a response whose end is written after the next request
    /// arrived (pipelining) must not start the wait.
    private var headsReceived = 0

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
        if case .head = unwrapInboundIn(data) {
            headsReceived += 1
            disarm()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        let written = promise ?? context.eventLoop.makePromise()
        let heads = headsReceived
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        written.futureResult.whenSuccess {
            let (handler, context) = loopBound.value
            if handler.headsReceived == heads, context.channel.isActive { handler.arm(context) }
        }
        context.write(data, promise: written)
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
