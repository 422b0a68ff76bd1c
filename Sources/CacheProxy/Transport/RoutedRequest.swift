import CacheProxyParsing
import NIOCore

/// A request's head with the route its target names, parsed once at the edge of the
/// connection: what the handlers behind the hit handlers and the connection's task receive, so
/// that the body limit, the router, the error format and the metrics label are read, not
/// worked out again.
///
/// A class, so that the request parts stay as small as the codec's own (a larger head would make
/// every body part a boxed value on its way through the pipeline).
final class RoutedRequest: Equatable, Sendable {
    let head: RequestHead
    let route: RequestRoute

    init(head: RequestHead, route: RequestRoute) {
        self.head = head
        self.route = route
    }

    static func == (lhs: RoutedRequest, rhs: RoutedRequest) -> Bool {
        lhs.head == rhs.head && lhs.route == rhs.route
    }
}

/// The request parts the connection's task reads: the codec's, with the routed head.
typealias RoutedRequestPart = HTTP1Part<RoutedRequest, ByteBuffer>
