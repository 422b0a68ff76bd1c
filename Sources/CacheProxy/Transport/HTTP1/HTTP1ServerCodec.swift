import CacheProxyParsing
import NIOCore

/// The server side of HTTP/1.1 on one connection: decodes requests from bytes, serves them one
/// at a time, and encodes responses into bytes.
///
/// - **One request at a time.** A request's parts are delivered, then nothing more until its
///   response has ended: the bytes of a pipelined request wait here, and the connection is not
///   read meanwhile (a client cannot make the proxy buffer without bound). When the response
///   ends, the next request is delivered at once, from inside that write, so a handler that
///   answers synchronously (`CacheHitHandler`) serves a pipeline of hits in one read.
/// - **Strict framing** (``HTTP1RequestHeadParser``): anything ambiguous, such as a length
///   together with a transfer coding, is answered `400 Bad Request` with `Connection: close`,
///   once, and the connection closes; nothing after it is read. A response that ends its
///   connection (`Connection: close`) is the last one: no request behind it is delivered.
/// - **Bodies** are passed on as slices of the bytes received, with `Content-Length` or
///   chunked (``ChunkedBodyDecoder``), whatever the method; the handlers decide what to keep.
final class HTTP1ServerCodec: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = RequestPart
    typealias OutboundIn = ResponsePart
    typealias OutboundOut = IOData

    private enum Reading {
        /// Waiting for the next request's head.
        case head
        case body(remaining: Int)
        case chunkedBody(ChunkedBodyDecoder)
        /// The request is whole; the next is read once its response has ended.
        case awaitingResponse
        /// A response ended the connection, or its bytes were not HTTP: nothing more is read.
        case stopped
    }

    private let parser: HTTP1RequestHeadParser
    private var reading = Reading.head
    /// Received and not yet decoded.
    private var received = ByteBuffer()
    /// A request was delivered whose response has not ended.
    private var responseOwed = false
    /// That request is a HEAD: its response has no body, whatever its head announces.
    private var owedToHead = false
    /// A response's head went out and its end has not.
    private var responseStarted = false
    /// Whether the response being written leaves the connection open.
    private var responseKeepsAlive = true
    private var encoding = ResponseEncoding()
    /// A read the channel asked for while a response was owed, made once it has ended.
    private var readPending = false
    /// Set while requests are being delivered: a response that ends meanwhile (answered
    /// synchronously) lets the loop running go on, instead of starting another.
    private var decoding = false

    init(limits: HTTP1RequestHeadParser.Limits) {
        parser = HTTP1RequestHeadParser(limits: limits)
        let (perLine, overflowA) = limits.maximumFieldCount.multipliedReportingOverflow(by: 8)
        let (sum, overflowB) = limits.maximumHeadBytes.addingReportingOverflow(limits.maximumFieldSize)
        let (bound, overflowC) = sum.addingReportingOverflow(perLine)
        partialHeadLimit = overflowA || overflowB || overflowC ? Int.max : bound
    }

    private static let lineFeed = UInt8(ascii: "\n")
    /// The most bytes of a head whose last line has not ended that the codec holds before it
    /// is parsed: every limit of a head, its lines' syntax, and one line of the per-field limit.
    private let partialHeadLimit: Int

    // MARK: Requests

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !isStopped else { return }
        var bytes = unwrapInboundIn(data)
        var endsALine = true
        if case .head = reading { endsALine = bytes.withUnsafeReadableBytes { $0.contains(HTTP1ServerCodec.lineFeed) } }
        if received.readableBytes == 0 {
            received = bytes
        } else {
            received.writeBuffer(&bytes)
        }
        // A head is parsed again from its start: bytes that end no line cannot complete one,
        // and a head sent a byte at a time would otherwise cost a parse per byte.
        if case .head = reading, !endsALine {
            if received.readableBytes > partialHeadLimit { refuse(context: context) }
            return
        }
        deliverRequests(context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        reading = .stopped
        received = ByteBuffer()
        context.fireChannelInactive()
    }

    func read(context: ChannelHandlerContext) {
        if case .awaitingResponse = reading, responseOwed {
            readPending = true
        } else {
            context.read()
        }
    }

    private var isStopped: Bool {
        if case .stopped = reading { return true }
        return false
    }

    /// Delivers the parts of every request the bytes received hold, as long as no response is
    /// owed; returns whether any part was delivered.
    @discardableResult
    private func deliverRequests(context: ChannelHandlerContext) -> Bool {
        guard !decoding else { return false }
        decoding = true
        defer { decoding = false }
        var delivered = false
        // Each turn reads `reading` afresh: a part delivered may have been answered (and the
        // state changed) before `fireChannelRead` returns.
        parts: while true {
            switch reading {
            case .stopped:
                break parts
            case .awaitingResponse:
                guard !responseOwed else { break parts }
                reading = .head
            case .head:
                guard received.readableBytes > 0 else { break parts }
                switch received.withUnsafeReadableBytes({ parser.parse($0) }) {
                case .needMore:
                    break parts
                case .invalid:
                    refuse(context: context)
                    break parts
                case .head(let parsed, let length):
                    received.moveReaderIndex(forwardBy: length)
                    responseOwed = true
                    owedToHead = parsed.method == "HEAD"
                    delivered = true
                    startBody(parsed.framing)
                    context.fireChannelRead(wrapInboundOut(.head(RequestHead(parsed))))
                    if case .awaitingResponse = reading {  // no body
                        context.fireChannelRead(wrapInboundOut(.end(nil)))
                    }
                }
            case .body(let remaining):
                guard received.readableBytes > 0, let bytes = received.readSlice(length: min(remaining, received.readableBytes))
                else { break parts }
                delivered = true
                let left = remaining - bytes.readableBytes
                reading = left == 0 ? .awaitingResponse : .body(remaining: left)
                context.fireChannelRead(wrapInboundOut(.body(bytes)))
                if left == 0 { context.fireChannelRead(wrapInboundOut(.end(nil))) }
            case .chunkedBody(var decoder):
                guard received.readableBytes > 0 else { break parts }
                let step = received.withUnsafeReadableBytes { decoder.decode($0) }
                reading = .chunkedBody(decoder)
                switch step {
                case .needMore(let consumed):
                    received.moveReaderIndex(forwardBy: consumed)
                    break parts
                case .data(let range, let consumed):
                    let bytes = received.getSlice(at: received.readerIndex + range.lowerBound, length: range.count)
                    received.moveReaderIndex(forwardBy: consumed)
                    if let bytes {
                        delivered = true
                        context.fireChannelRead(wrapInboundOut(.body(bytes)))
                    }
                case .end(let consumed):
                    received.moveReaderIndex(forwardBy: consumed)
                    reading = .awaitingResponse
                    delivered = true
                    context.fireChannelRead(wrapInboundOut(.end(nil)))
                case .invalid:
                    refuse(context: context)
                    break parts
                }
            }
        }
        keepOnlyWhatIsLeft(allocator: context.channel.allocator)
        return delivered
    }

    private func startBody(_ framing: HTTP1RequestHeadParser.Framing) {
        switch framing {
        case .none, .contentLength(0): reading = .awaitingResponse
        case .contentLength(let length): reading = .body(remaining: length)
        case .chunked: reading = .chunkedBody(ChunkedBodyDecoder(limits: parser.limits))
        }
    }

    /// Bytes that are not HTTP/1: a `400` unless a response is under way (its client could not
    /// tell the two apart), then the connection closes.
    private func refuse(context: ChannelHandlerContext) {
        reading = .stopped
        received = ByteBuffer()
        guard !responseStarted else {
            context.close(promise: nil)
            return
        }
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.byteBuffer(ResponseEncoding.badRequest(allocator: channel.allocator))))
            .whenComplete { _ in channel.close(promise: nil) }
    }

    /// Drops the bytes delivered. A remainder left waiting (part of a head, or a pipelined
    /// request) is copied out of the receive buffer, which the channel could otherwise not
    /// reuse for its next read.
    private func keepOnlyWhatIsLeft(allocator: ByteBufferAllocator) {
        guard received.readableBytes > 0 else {
            received = ByteBuffer()
            return
        }
        var copy = allocator.buffer(capacity: received.readableBytes)
        copy.writeBuffer(&received)
        received = copy
    }

    // MARK: Responses

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            responseStarted = true
            responseKeepsAlive = head.isKeepAlive
            let bytes = encoding.encode(head, toHead: owedToHead, allocator: context.channel.allocator)
            context.write(wrapOutboundOut(.byteBuffer(bytes)), promise: promise)
        case .body(let body):
            guard let frame = encoding.chunkFrame(count: body.readableBytes, allocator: context.channel.allocator) else {
                context.write(wrapOutboundOut(body), promise: promise)
                return
            }
            context.write(wrapOutboundOut(.byteBuffer(frame.header)), promise: nil)
            context.write(wrapOutboundOut(body), promise: nil)
            context.write(wrapOutboundOut(.byteBuffer(frame.trailer)), promise: promise)
        case .end(let trailers):
            if let last = encoding.end(trailers: trailers, allocator: context.channel.allocator) {
                context.write(wrapOutboundOut(.byteBuffer(last)), promise: promise)
            } else if let promise {
                // Completed after everything written before it, not before.
                context.write(wrapOutboundOut(.byteBuffer(context.channel.allocator.buffer(capacity: 0))), promise: promise)
            }
            responseEnded(context: context)
        }
    }

    /// The response owed has ended: the next request may be delivered, unless this response
    /// ended the connection.
    private func responseEnded(context: ChannelHandlerContext) {
        responseStarted = false
        responseOwed = false
        guard responseKeepsAlive else {
            reading = .stopped
            received = ByteBuffer()
            return
        }
        if deliverRequests(context: context) {
            // Outside a read: the handlers behind (the connection's stream of requests among
            // them) pass on what they buffered when a read completes.
            context.fireChannelReadComplete()
        }
        if readPending, !responseOwed {
            readPending = false
            context.read()
        }
    }
}

extension RequestHead {
    init(_ parsed: HTTP1RequestHeadParser.Head) {
        self.init(
            method: RequestMethod(rawValue: parsed.method), uri: parsed.target,
            version: ProtocolVersion(major: 1, minor: parsed.minorVersion),
            headers: HeaderFields(parsed.fields.map { ($0.name, $0.value) }))
    }
}
