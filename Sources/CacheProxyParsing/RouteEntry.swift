/// One route of ``RouteTable``: the paths it answers, its ``RouteTraits``, and how the
/// parameters it takes (its query, the `*` segment of its path, a DASH origin) become a
/// ``ProxyRoute``.
struct RouteEntry: Sendable {
    /// What a matched target offers the route's parameter parser.
    struct Match {
        /// The whole request target (DASH's path form reads its query as part of the origin URL).
        let target: [UInt8]
        /// The target up to its `?`.
        let path: ArraySlice<UInt8>
        /// The target after its `?` (empty without one).
        let query: ArraySlice<UInt8>
        /// The path's `*` segment (empty when the pattern has none).
        let parameter: ArraySlice<UInt8>
        let limits: RequestTargetLimits

        /// The target from the end of the `*` segment on, its query included.
        var afterParameter: ArraySlice<UInt8> { target[parameter.endIndex...] }
    }

    typealias Parameters = @Sendable (Match) throws(ParseError) -> ProxyRoute

    let patterns: [RoutePattern]
    let traits: RouteTraits
    let parameters: Parameters

    /// An entry for `paths` (``RoutePattern``s), whose target parses with `parameters`.
    init(_ paths: String..., access: RouteAccess, label: RouteLabel, body: RouteTraits.BodyLimit = .none,
         methods: RouteTraits.Methods = .getAndHead, errors: RouteTraits.ErrorFormat, parameters: @escaping Parameters) {
        patterns = paths.map(RoutePattern.init)
        traits = RouteTraits(access: access, label: label, body: body, methods: methods, errors: errors)
        self.parameters = parameters
    }

    /// The parameters of a route that takes nothing from its target but its path.
    static func always(_ route: ProxyRoute) -> Parameters {
        { _ throws(ParseError) in route }
    }

    /// The parameters of paths that belong to a family of routes (`/sessions/...`) but name
    /// none of them: counted and answered as the family's, with 404.
    static let notFound: Parameters = { _ throws(ParseError) in throw ParseError(.notFound, "no such resource") }

    /// Where `path` matches one of the entry's patterns, the range of its `*` segment.
    func match<Path: Collection<UInt8>>(_ path: Path) -> Range<Path.Index>? {
        for pattern in patterns {
            if let parameter = pattern.match(path) { return parameter }
        }
        return nil
    }
}
