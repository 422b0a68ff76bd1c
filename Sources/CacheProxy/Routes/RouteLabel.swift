import CacheProxyParsing

/// The metrics label of a route, declared with the route in `RouteTable` (CacheProxyParsing);
/// this name makes it the proxy's own, so that the files that count requests need not import
/// the parsing module.
typealias RouteLabel = CacheProxyParsing.RouteLabel
