/// A request target as the proxy reads it, once, at the edge of the connection: the traits of
/// the route its path names (``RouteTable``) and the route with its parameters, or why they
/// did not parse. The traits hold even when the parameters do not (a bad `url` is still a
/// player's request, refused as one), so every handler after the edge reads this value
/// instead of classifying the target again.
public struct RequestRoute: Sendable, Hashable {
    /// What the route declares: access, metrics label, body limit, methods, error format.
    public let traits: RouteTraits
    /// The route and its parameters; the ``ParseError`` the router answers with otherwise.
    public let parsed: Result<ProxyRoute, ParseError>

    /// Reads `target` (a request target in origin form) under `limits`.
    public init(target: some Collection<UInt8>, limits: RequestTargetLimits = RequestTargetLimits()) {
        guard target.count <= limits.maximumLength else {
            traits = RouteTable.traits(forPath: target)
            parsed = .failure(ParseError(.tooLong, "request target longer than \(limits.maximumLength) bytes"))
            return
        }
        let bytes = Array(target)
        let questionMark = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.count
        let path = bytes[..<questionMark]
        guard let (entry, parameter) = RouteTable.entry(forPath: path) else {
            traits = RouteTable.unmatched
            parsed = .failure(ParseError(.notFound, "no such resource"))
            return
        }
        traits = entry.traits
        let match = RouteEntry.Match(target: bytes, path: path, query: bytes[min(questionMark + 1, bytes.count)...],
                                     parameter: bytes[parameter], limits: limits)
        do {
            parsed = .success(try entry.parameters(match))
        } catch {
            parsed = .failure(error)
        }
    }

    /// The route, when its parameters parsed.
    public var route: ProxyRoute? {
        guard case .success(let route) = parsed else { return nil }
        return route
    }
}
