import CacheProxyParsing

/// The app's header fields per origin (``CacheProxyConfiguration/originHeaders``): host patterns
/// as in ``CacheProxyConfiguration/allowedHosts`` (`cdn.example.com`, or `*.example.com`, which
/// also matches `example.com`) to the fields every request to a matching host carries.
///
/// When several patterns match a host, their fields are merged, the more specific pattern's
/// winning per name: an exact name over any suffix, a longer suffix over a shorter one.
struct OriginHeaderRules: Sendable {
    private struct Rule: Sendable {
        /// `example.com` for `*.example.com` and for `example.com`.
        var name: String
        var isSuffix: Bool
        var fields: OriginHeaderFields

        func matches(_ host: String) -> Bool {
            host == name || (isSuffix && host.hasSuffix("." + name))
        }
    }

    /// Most specific first.
    private let rules: [Rule]

    init(_ patterns: [String: OriginHeaderFields] = [:]) {
        rules = patterns.compactMap { pattern, fields -> Rule? in
            let lowered = pattern.lowercased()
            guard !fields.isEmpty else { return nil }
            if lowered.hasPrefix("*.") { return Rule(name: String(lowered.dropFirst(2)), isSuffix: true, fields: fields) }
            return Rule(name: lowered, isSuffix: false, fields: fields)
        }.sorted { lhs, rhs in
            if lhs.isSuffix != rhs.isSuffix { return !lhs.isSuffix }
            if lhs.name.count != rhs.name.count { return lhs.name.count > rhs.name.count }
            return lhs.name < rhs.name
        }
    }

    var isEmpty: Bool { rules.isEmpty }

    /// The fields for requests to `host` (lower-cased, as ``OriginURL/host`` gives it).
    func fields(for host: String) -> OriginHeaderFields {
        var fields = OriginHeaderFields()
        for rule in rules where rule.matches(host) { fields = fields.merged(over: rule.fields) }
        return fields
    }

    /// The fields a request to `hop` carries when it was asked of `first` with `requested`
    /// (a session's, a prefetch item's, a player's): `requested` over the app's fields for the
    /// hop's host. On a redirect to another origin (scheme, host or port), `Authorization` and
    /// `Cookie` of `requested` are dropped, as browsers and curl do, unless the app's fields for
    /// that host name them (the app vouches for the host).
    func fields(for hop: OriginURL, first: OriginURL, requested: OriginHeaderFields) -> OriginHeaderFields {
        let app = fields(for: hop.host)
        guard !requested.isEmpty else { return app }
        if hop.scheme == first.scheme, hop.authority == first.authority { return requested.merged(over: app) }
        let dropped = Self.credentialNames.filter { !app.contains($0) }
        return requested.removing(dropped).merged(over: app)
    }

    /// The fields that carry credentials, dropped on a redirect to another origin.
    static let credentialNames: Set<String> = ["authorization", "cookie"]
}
