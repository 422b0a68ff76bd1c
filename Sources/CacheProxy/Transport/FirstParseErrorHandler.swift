import NIOCore
import NIOHTTP1

/// Passes on a connection's first HTTP parse error and drops any later one. The decoder can
/// report the same bad bytes twice, once as it reads them and again as the connection closes
/// (a request line naming `HTTP/2.0` did), and `HTTPServerProtocolErrorHandler` answers every
/// error it sees with a 400: the client read two answers to one request.
final class FirstParseErrorHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    private var reported = false

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is HTTPParserError {
            guard !reported else { return }
            reported = true
        }
        context.fireErrorCaught(error)
    }
}
