import CacheProxyParsing
import NIOCore

/// Judges every request the HTTP/1 codec delivers by the request policy, before any
/// handler may answer it (`CacheHitHandler` and the asynchronous path sit behind it, so a new
/// route is guarded without doing anything). A refused request is answered here, with its
/// status and a one-line reason, once its body has been read and dropped; an approved CORS
/// preflight gets its `204`. A request from an allowed origin goes on, and its response gets
/// the CORS headers here on its way out. What the route needs (its ``RouteAccess``) is read from
/// the route the connection parsed (``RouteMemo``), not worked out from the target again.
///
/// It sits below `RequestHeadTimeoutHandler`, which must see the ends of its answers too.
final class RequestGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = RequestPart
    typealias InboundOut = RequestPart
    typealias OutboundIn = ResponsePart
    typealias OutboundOut = ResponsePart

    private enum State {
        case idle
        /// The request went on; its response names `corsOrigin` when set.
        case forwarding(corsOrigin: String?)
        /// The answer, sent when the request's end arrives.
        case answering(ResponseHead, body: ByteBuffer?)
    }

    /// What a page's script may read of a response besides the safelisted headers.
    private static let exposedHeaders = "Content-Range, Accept-Ranges, ETag, Last-Modified"
    private static let allowedMethods = "GET, HEAD, POST, DELETE"
    private static let allowedHeaders = "Authorization, Content-Type, Range, If-Range"

    private let gate: RequestGate
    private let routes: RouteMemo
    private var state = State.idle

    init(gate: RequestGate, routes: RouteMemo) {
        self.gate = gate
        self.routes = routes
    }

    func channelInactive(context: ChannelHandlerContext) {
        state = .idle
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch (unwrapInboundIn(data), state) {
        case (.head(let head), _):
            switch gate.verdict(for: head, access: routes.route(for: head.uri).traits.access) {
            case .pass(let corsOrigin):
                state = .forwarding(corsOrigin: corsOrigin)
                context.fireChannelRead(data)
            case .approvePreflight(let origin):
                state = .answering(Self.preflightApproval(head, origin: origin), body: nil)
            case .refuse(let refusal):
                let (response, body) = Self.refusal(refusal, to: head, allocator: context.channel.allocator)
                state = .answering(response, body: body)
            }
        case (.body, .answering):
            break
        case (.end, .answering(let response, let body)):
            state = .idle
            context.write(wrapOutboundOut(.head(response)), promise: nil)
            if let body { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
            context.writeLastAndFlush(wrapOutboundOut(.end(nil)), keepAlive: response.isKeepAlive)
        case (.body, _), (.end, _):
            context.fireChannelRead(data)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .head(var head) = unwrapOutboundIn(data), case .forwarding(let corsOrigin?) = state else {
            context.write(data, promise: promise)
            return
        }
        head.headers.replaceOrAdd(name: "Access-Control-Allow-Origin", value: corsOrigin)
        head.headers.add(name: "Vary", value: "Origin")
        head.headers.replaceOrAdd(name: "Access-Control-Expose-Headers", value: Self.exposedHeaders)
        context.write(wrapOutboundOut(.head(head)), promise: promise)
    }

    private static func preflightApproval(_ request: RequestHead, origin: String) -> ResponseHead {
        var headers: HeaderFields = [
            "Access-Control-Allow-Origin": origin, "Access-Control-Allow-Methods": allowedMethods,
            "Access-Control-Allow-Headers": allowedHeaders, "Access-Control-Max-Age": "600", "Vary": "Origin",
        ]
        // Chrome asks before a public page reaches a private address (Private Network Access).
        if request.headers.first(name: "access-control-request-private-network") == "true" {
            headers.add(name: "Access-Control-Allow-Private-Network", value: "true")
        }
        return response(to: request, status: .noContent, headers: headers)
    }

    private static func refusal(_ refusal: RequestPolicy.Refusal, to request: RequestHead, allocator: ByteBufferAllocator)
        -> (ResponseHead, ByteBuffer?)
    {
        let body = allocator.buffer(string: refusal.reason + "\n")
        var headers: HeaderFields = [
            "Content-Type": "text/plain; charset=utf-8", "Content-Length": String(body.readableBytes), "Cache-Control": "no-store",
        ]
        if let challenge = refusal.challenge { headers.add(name: "WWW-Authenticate", value: challenge) }
        return (response(to: request, status: ResponseStatus(statusCode: refusal.status), headers: headers),
                request.method == .HEAD ? nil : body)
    }

    private static func response(to request: RequestHead, status: ResponseStatus, headers: HeaderFields) -> ResponseHead {
        var headers = headers
        _ = ResponseFraming.apply(to: &headers, version: request.version, keepAlive: request.isKeepAlive, isHead: request.method == .HEAD)
        return ResponseHead(version: request.version, status: status, headers: headers)
    }
}
