import NIOCore

/// One part of an HTTP/1 message on its way through a connection's pipeline: the head, a
/// piece of the body, or the end (with any trailer fields).
enum HTTP1Part<Head: Sendable, Body: Sendable>: Sendable {
    case head(Head)
    case body(Body)
    case end(HeaderFields?)
}

extension HTTP1Part: Equatable where Head: Equatable, Body: Equatable {}

/// A request as the decoder delivers it.
typealias RequestPart = HTTP1Part<RequestHead, ByteBuffer>
/// A response as the handlers write it; a body part may be a file region, sent with `sendfile`.
typealias ResponsePart = HTTP1Part<ResponseHead, IOData>
