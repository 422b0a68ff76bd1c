/// Key functions: how a request URL becomes a cache key.
///
/// The default, ``normalizedURL(_:)``, makes URLs that name the same resource equal. Signed
/// URLs (CDN tokens, expiring signatures) name the same bytes with a different query each
/// time; strip those parameters with ``strippingQueryParameters(_:)`` so they share an entry.
public enum CacheKey {
    /// Lower-cases the scheme and host, drops the default port (80 for http, 443 for https) and
    /// any fragment, and keeps the path and query exactly as given. Strings that are not
    /// absolute http(s) URLs are returned unchanged.
    public static func normalizedURL(_ url: String) -> String {
        var text = Substring(url)
        if let hash = text.firstIndex(of: "#") { text = text[..<hash] }
        guard let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://") else { return String(text) }
        let scheme = text[..<colon].lowercased()
        guard scheme == "http" || scheme == "https" else { return String(text) }
        let rest = text[text.index(colon, offsetBy: 3)...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        var authority = rest[..<authorityEnd].lowercased()
        let defaultPort = scheme == "http" ? ":80" : ":443"
        if authority.hasSuffix(defaultPort) { authority.removeLast(defaultPort.count) }
        var path = String(rest[authorityEnd...])
        if path.isEmpty || path.first == "?" { path = "/" + path }
        return scheme + "://" + authority + path
    }

    /// A key function that normalizes the URL and removes the named query parameters (exact,
    /// case-sensitive names), keeping the others in their order.
    public static func strippingQueryParameters(_ names: Set<String>) -> @Sendable (String) -> String {
        { url in
            let normalized = normalizedURL(url)
            guard let question = normalized.firstIndex(of: "?") else { return normalized }
            let kept = normalized[normalized.index(after: question)...]
                .split(separator: "&", omittingEmptySubsequences: true)
                .filter { parameter in
                    let name = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                    return !names.contains(String(name))
                }
            let base = normalized[..<question]
            return kept.isEmpty ? String(base) : base + "?" + kept.joined(separator: "&")
        }
    }
}
