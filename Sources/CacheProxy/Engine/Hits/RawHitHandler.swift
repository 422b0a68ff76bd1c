import CacheProxyParsing
import NIOCore

/// Answers cache hits straight from a connection's bytes, before the HTTP/1 codec (`HTTP1ServerCodec`): for
/// the plain requests players send (`RawRequestHead`), a hit then costs no `RequestHead`,
/// no trip through the HTTP handlers and no response encoder, a large part of what a hit costs
/// beyond its three system calls.
///
/// Every other request goes on to the decoder, whole and in order, and is answered there
/// (`CacheHitHandler`, or the asynchronous path), and so does one the connection's
/// `RequestGate` does not admit here (a `Host` that is not the proxy's, an `Origin`): the
/// `RequestGuardHandler` behind the decoder answers it. A hit is answered here only when every request
/// handed on has been answered (the connection's `ResponseFence`), so responses never overtake
/// each other. Bytes that are not plain HTTP (a bare LF, a body, an
/// `Expect`, too long a head) hand the rest of the connection to the decoder for good.
final class RawHitHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private enum State {
        /// Reading heads; the bytes received and not yet answered or handed on.
        case reading(ByteBuffer)
        /// The decoder has the rest of the connection.
        case handedOver
        /// A response that ends the connection was sent: what follows is not read.
        case closing
    }

    private let responder: HitResponder
    private let fence: ResponseFence
    /// Whether a request may be answered here at all (its `Host`, its `Origin`).
    private let gate: RequestGate
    private let counters: ProxyCounters
    private let headLimit: Int
    private let fieldLimit: Int
    private var state = State.reading(ByteBuffer())
    /// Whether bytes were passed on since the last `channelReadComplete`: only then do the
    /// handlers behind this one need it (the stream of requests they are waiting on, SwiftNIO's
    /// async channel among them, delivers what it buffered on it). A read whose requests were all
    /// answered here ends here, instead of passing through every handler of the connection.
    private var passedOnSinceReadComplete = false

    init(responder: HitResponder, fence: ResponseFence, gate: RequestGate, counters: ProxyCounters, headLimit: Int, fieldLimit: Int) {
        self.responder = responder
        self.fence = fence
        self.gate = gate
        self.counters = counters
        self.headLimit = headLimit
        self.fieldLimit = fieldLimit
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch state {
        case .handedOver:
            passOn(data, context: context)
        case .closing:
            break
        case .reading(var pending):
            var bytes = unwrapInboundIn(data)
            if pending.readableBytes == 0 {
                pending = bytes
            } else {
                pending.writeBuffer(&bytes)
            }
            serve(pending, context: context)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        guard passedOnSinceReadComplete else { return }
        passedOnSinceReadComplete = false
        context.fireChannelReadComplete()
    }

    func channelInactive(context: ChannelHandlerContext) {
        state = .closing
        context.fireChannelInactive()
    }

    /// Answers or hands on each whole head at the start of `pending`, in order.
    private func serve(_ pending: ByteBuffer, context: ChannelHandlerContext) {
        var buffer = pending
        while buffer.readableBytes > 0 {
            let reading = buffer.withUnsafeReadableBytes {
                RawRequestHead.read($0, limit: headLimit, maximumFields: fieldLimit, knownTarget: responder.lastURI)
            }
            switch reading {
            case .needMore:
                // A copy of the part read so far: keeping the receive buffer would hold up to
                // 64 KiB per connection and stop the channel from reusing it for the next read.
                var partial = context.channel.allocator.buffer(capacity: buffer.readableBytes)
                partial.writeBuffer(&buffer)
                state = .reading(partial)
                return
            case .notPlain:
                state = .handedOver
                passOn(wrapInboundOut(buffer), context: context)
                return
            case .head(let head, let length):
                if fence.isClear, gate.admitsRawHit(head), let answer = answer(head, allocator: context.channel.allocator) {
                    buffer.moveReaderIndex(forwardBy: length)
                    state = .reading(buffer)
                    // Counted before it is sent: a client that has its response sees it counted.
                    counters.recordRawHit()
                    fence.answeredRaw()
                    send(answer, context: context)
                    guard answer.keepAlive else {
                        state = .closing
                        return
                    }
                } else {
                    guard let request = buffer.readSlice(length: length) else {
                        state = .handedOver
                        passOn(wrapInboundOut(buffer), context: context)
                        return
                    }
                    state = .reading(buffer)
                    fence.handOn()
                    // The decoder may answer it at once (a hit behind the codec), so that
                    // the fence may be clear again when the next head is read.
                    passOn(wrapInboundOut(request), context: context)
                    guard case .reading = state else { return }
                }
            }
        }
        state = .reading(ByteBuffer())  // all read: the receive buffer goes back to the channel
    }

    private func passOn(_ data: NIOAny, context: ChannelHandlerContext) {
        passedOnSinceReadComplete = true
        context.fireChannelRead(data)
    }

    private func answer(_ head: RawRequestHead, allocator: ByteBufferAllocator) -> HitResponder.Answer? {
        responder.answer(
            method: RequestMethod(rawValue: head.method), uri: head.target, version: ProtocolVersion(major: 1, minor: head.minorVersion),
            keepAlive: head.keepAlive, range: head.range, ifRange: head.ifRange, allocator: allocator)
    }

    /// Writes the response as the codec's encoder would: status line, header fields, body; and
    /// tells the responder how long a body whose write it asked to time took to go into the
    /// socket (the write is made here, synchronously, as far as the socket has room).
    private func send(_ answer: HitResponder.Answer, context: ChannelHandlerContext) {
        var head = context.channel.allocator.buffer(capacity: answer.headCapacity)
        answer.writeHead(into: &head)
        guard let body = answer.body else {
            context.writeLastAndFlush(wrapOutboundOut(.byteBuffer(head)), keepAlive: answer.keepAlive, logging: answer.log)
            return
        }
        let started = answer.chosenMethod == nil ? 0 : NIODeadline.now().uptimeNanoseconds
        context.write(wrapOutboundOut(.byteBuffer(head)), promise: nil)
        context.writeLastAndFlush(wrapOutboundOut(body), keepAlive: answer.keepAlive, logging: answer.log)
        if answer.chosenMethod != nil, Self.kernelTookEverything(context) {
            responder.recordWrite(of: answer, nanoseconds: NIODeadline.now().uptimeNanoseconds &- started)
        }
    }

    /// Whether the socket took everything written: the rest of a body it took in part is copied
    /// on a later writable event, outside the time measured, and a mapping would look cheapest
    /// exactly when its client lags (the channel's writability says nothing of this: it compares
    /// SwiftNIO's queue with a high-water mark above a hit's size).
    private static func kernelTookEverything(_ context: ChannelHandlerContext) -> Bool {
        (try? context.channel.syncOptions?.getOption(.bufferedWritableBytes)) == 0
    }
}
