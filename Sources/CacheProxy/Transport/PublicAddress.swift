import CacheProxyParsing
import HLS

/// How players reach a proxy, settled once from its configuration: the public URL it was given,
/// or what its listening address says (whether it is loopback, and the host as a URL writes it).
struct PublicAddress: Sendable {
    /// ``CacheProxyConfiguration/publicURL``, normalized, without a trailing slash.
    let fixedBase: String?
    /// Whether the proxy listens on a loopback address (players then use that address).
    let listensOnLoopback: Bool
    /// The listening host as a URL writes it: an IPv6 address in brackets.
    let boundHost: String

    init(_ configuration: CacheProxyConfiguration) {
        fixedBase = configuration.publicURL.flatMap(Self.base)
        listensOnLoopback = CacheProxy.isLoopback(configuration.host)
        let host = configuration.host
        boundHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    }

    /// The base of the URLs written for `request` (nil: for no request in particular) to a proxy
    /// listening on `port`: the public URL when there is one; else, on loopback, the listening
    /// address; else the request's `Host` when it is a valid host and port, and the listening
    /// address when it is not.
    func base(for request: RequestHead?, port: Int) -> String {
        if let fixedBase { return fixedBase }
        if !listensOnLoopback, let value = request?.headers.first(name: "host"),
           let host = try? RequestAuthority(parsing: value.utf8), host.isPlainName {
            return "http://\(host)"
        }
        return "http://\(boundHost):\(port)"
    }

    /// The base a public URL gives (`https://video.example.com/cache`: scheme and authority
    /// normalized, no trailing slash); nil when it is not an http(s) URL without user
    /// information, query or fragment, with a plain host name, that a playlist can hold as it is.
    static func base(_ publicURL: String) -> String? {
        guard !publicURL.contains("#"), let url = try? OriginURL(parsing: publicURL), !url.pathAndQuery.contains("?"),
              (try? RequestAuthority(parsing: url.authority.utf8))?.isPlainName == true else { return nil }
        var path = Substring(url.pathAndQuery)
        while path.hasSuffix("/") { path = path.dropLast() }
        let base = "\(url.scheme.rawValue)://\(url.authority)\(path)"
        return HLSProxyEndpoint(base + "/proxy") == nil ? nil : base
    }
}
