import CacheProxyParsing

/// The route of the last request target a connection read, parsed once at the edge: the raw
/// hit path parses it (``HitResponder``), and when the request goes on to the HTTP/1 codec
/// the handlers behind it (`RequestGuardHandler`, `CacheHitHandler`) find it here by the target
/// alone, then pass it along with the request (``RoutedRequest``).
///
/// One per connection, used on its event loop only.
final class RouteMemo {
    private let limits: RequestTargetLimits
    private var last: (target: String, route: RequestRoute)?

    init(limits: RequestTargetLimits) {
        self.limits = limits
    }

    /// The route `target` names, parsed unless it is the last target read.
    func route(for target: String) -> RequestRoute {
        if let last, last.target == target { return last.route }
        let route = RequestRoute(target: target.utf8, limits: limits)
        last = (target, route)
        return route
    }
}
