import NIOCore
import NIOHTTP1

/// Converts between SwiftNIO's HTTP/1 parts and the proxy's own, while SwiftNIO's decoder and
/// encoder still frame the connection.
final class NIOHTTP1Bridge: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = RequestPart
    typealias OutboundIn = ResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part: RequestPart
        switch unwrapInboundIn(data) {
        case .head(let head):
            let ours = RequestHead(
                method: RequestMethod(rawValue: head.method.rawValue), uri: head.uri,
                version: ProtocolVersion(major: head.version.major, minor: head.version.minor),
                headers: HeaderFields(head.headers.map { ($0.name, $0.value) }))
            part = .head(ours)
        case .body(let bytes): part = .body(bytes)
        case .end(let trailers): part = .end(trailers.map { HeaderFields($0.map { ($0.name, $0.value) }) })
        }
        context.fireChannelRead(wrapInboundOut(part))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part: HTTPServerResponsePart
        switch unwrapOutboundIn(data) {
        case .head(let head):
            part = .head(HTTPResponseHead(
                version: HTTPVersion(major: head.version.major, minor: head.version.minor),
                status: HTTPResponseStatus(statusCode: Int(head.status.code), reasonPhrase: head.status.reasonPhrase),
                headers: HTTPHeaders(head.headers.map { ($0.name, $0.value) })))
        case .body(let body): part = .body(body)
        case .end(let trailers): part = .end(trailers.map { HTTPHeaders($0.map { ($0.name, $0.value) }) })
        }
        context.write(wrapOutboundOut(part), promise: promise)
    }
}
