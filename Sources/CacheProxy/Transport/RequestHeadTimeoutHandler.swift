import NIOCore

/// Closes a connection that takes longer than `timeout` to send a request head, counted from
/// the connection's start and from the moment each response has been written out: it stops
/// slow-header clients and is the keep-alive idle timeout.
///
/// The wait starts when the response's end is queued, which for nearly every response is when
/// it leaves: no promise per response is needed to see it. A cached body goes out as one file
/// region, though, and a large one can take a slow client far longer than the timeout: when
/// the timer finds the connection still holding bytes for the client, the wait starts over,
/// and once they have left it starts over once more. An idle connection is so closed after
/// `timeout`, or after at most twice that when its last response was still leaving; never
/// sooner. (A client that stops reading is `WriteStallHandler`'s.)
///
/// Knowing when a connection owes no response, it also drains it when the proxy shuts down
/// gracefully (``DrainConnection``): at once when idle, else once its last response is flushed,
/// it closes its side of the connection, which waits for the bytes still queued (the client gets
/// every response whole), and the client's close ends the connection. A connection that owes
/// nothing and has nothing left to send is closed whole at once: a client that keeps an idle
/// connection open (an HTTP stack's pool) must not hold the shutdown for its grace period.
final class RequestHeadTimeoutHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = RequestPart
    typealias InboundOut = RequestPart
    typealias OutboundIn = ResponsePart
    typealias OutboundOut = ResponsePart

    private let timeout: TimeAmount
    /// When the connection started waiting for a request head; nil while one is being served.
    private var waitingSince: NIODeadline?
    /// Whether the timer last found a response still leaving.
    private var responseWasLeaving = false
    /// At most one timer per connection: it re-arms itself while the connection keeps serving
    /// requests, instead of one timer being scheduled and cancelled per request.
    private var timer: Scheduled<Void>?
    /// Request heads received and response ends written so far: a response whose end is written
    /// after the next request arrived (pipelining) must not start the wait.
    private var headsReceived = 0
    private var endsWritten = 0
    /// Told of every response end, so the raw-bytes hit path knows when the HTTP side is done.
    private let fence: ResponseFence
    /// The proxy is shutting down: close once no response is owed.
    private var draining = false
    /// A response end was written while draining and owing nothing more: close after the flush.
    private var closesAfterFlush = false

    init(timeout: TimeAmount, fence: ResponseFence) {
        self.timeout = timeout
        self.fence = fence
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let drain = event as? DrainConnection {
            draining = true
            let owesResponse = endsWritten != headsReceived
            let leaving = ((try? context.channel.syncOptions?.getOption(.bufferedWritableBytes)) ?? 0) > 0
            drain.tally.record(owesResponse: owesResponse || leaving)
            if !owesResponse {
                if leaving {
                    context.close(mode: .output, promise: nil)
                } else {
                    context.close(promise: nil)
                }
            }
        } else {
            context.fireUserInboundEventTriggered(event)
        }
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
            waitingSince = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            endsWritten += 1
            fence.responseEnded()
            if endsWritten == headsReceived {
                arm(context)
                closesAfterFlush = draining
            }
        }
        context.write(data, promise: promise)
    }

    func flush(context: ChannelHandlerContext) {
        context.flush()
        if closesAfterFlush {
            closesAfterFlush = false
            context.close(mode: .output, promise: nil)
        }
    }

    private func arm(_ context: ChannelHandlerContext) {
        waitingSince = .now()
        responseWasLeaving = false
        if timer == nil { schedule(context, at: .now() + timeout) }
    }

    private func schedule(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: deadline) {
            let (handler, context) = loopBound.value
            handler.timer = nil
            guard var since = handler.waitingSince, context.channel.isActive else { return }
            // Requests answered before they reached this handler (by `RawHitHandler`, from the
            // raw bytes) restart the wait as `arm` does: the last one is when it starts.
            if let answered = handler.fence.lastRawAnswer, answered > since {
                since = answered
                handler.waitingSince = answered
                handler.responseWasLeaving = false
            }
            let leaving = ((try? context.channel.syncOptions?.getOption(.bufferedWritableBytes)) ?? 0) > 0
            if leaving || handler.responseWasLeaving {
                // The last response was still leaving when last seen: the idle time starts now.
                handler.responseWasLeaving = leaving
                handler.waitingSince = .now()
                handler.schedule(context, at: .now() + handler.timeout)
            } else if NIODeadline.now() >= since + handler.timeout {
                context.close(promise: nil)
            } else {
                handler.schedule(context, at: since + handler.timeout)
            }
        }
    }
}
