import CacheProxyParsing

extension CacheProxyConfiguration {
    /// Who may use the proxy. Every web page the user opens can reach a proxy on loopback; the
    /// defaults let none of them read it or change it (Docs/SECURITY.md):
    ///
    /// - a request naming any host but the proxy's own in `Host` gets `421` (DNS rebinding);
    /// - a request that changes state (`POST`, `DELETE`, ... on a control route) from a foreign
    ///   `Origin` gets `403`, and one that is not `Content-Type: application/json` gets `415`;
    /// - only ``allowedOrigins`` get CORS headers.
    ///
    /// ```swift
    /// var configuration = CacheProxyConfiguration()
    /// configuration.security.controlToken = CacheProxyConfiguration.Security.makeControlToken()
    /// // hand the token to the app's own code; players need none
    /// ```
    public struct Security: Sendable {
        /// More names requests may give the proxy in `Host`, as `host` (any port) or `host:port`,
        /// besides `localhost`, `127.0.0.1`, `[::1]` and the addresses it listens at (with its
        /// port) and the host of ``CacheProxyConfiguration/publicURL``. Default none.
        public var allowedRequestHosts: [String] = []
        /// Web origins (`https://app.example`, `capacitor://localhost`, or `null`) whose pages
        /// may use the proxy: they get CORS headers and their preflights approved, and may
        /// change its state. Default none.
        public var allowedOrigins: [String] = []
        /// When set, the control routes (everything but `/proxy` and a session's playlist and
        /// media) need `Authorization: Bearer` with this token. Letters, digits and `-._~+/=`.
        /// Default nil.
        public var controlToken: String?
        /// Resolves origin host names for the check before connecting; tests make names resolve
        /// where they need.
        package var resolver = OriginResolver.system

        public init() {}

        /// A new random control token (256 bits from the system's secure generator, as 64 hex
        /// digits): one per launch, handed to the app's own code and to no page.
        public static func makeControlToken() -> String {
            var generator = SystemRandomNumberGenerator()
            return (0..<32).map { _ in
                let byte = UInt8.random(in: 0...255, using: &generator)
                return String(byte >> 4, radix: 16) + String(byte & 0x0F, radix: 16)
            }.joined()
        }

        /// The request policy these settings and `publicURL` make.
        ///
        /// - Throws: `CacheProxyError.Code.invalidConfiguration` for a host, origin, token or
        ///   public URL that cannot be what it stands for.
        func requestPolicy(publicURL: String?) throws(CacheProxyError) -> RequestPolicy {
            if let controlToken, !RequestPolicy.isValidToken(controlToken) {
                throw CacheProxyError(.invalidConfiguration, "the control token may hold letters, digits and -._~+/= only")
            }
            var hosts: [RequestAuthority] = []
            if let publicURL {
                guard let url = try? OriginURL(parsing: publicURL) else {
                    throw CacheProxyError(.invalidConfiguration, "the public URL \(publicURL) is not an http(s) URL")
                }
                hosts.append(RequestAuthority(host: url.host, port: url.port))
            }
            for host in allowedRequestHosts {
                guard let authority = try? RequestAuthority(parsing: Array(host.utf8)) else {
                    throw CacheProxyError(.invalidConfiguration, "the request host \(host) is not a host or host:port")
                }
                hosts.append(authority)
            }
            var origins: Set<RequestOrigin> = []
            for origin in allowedOrigins {
                guard let parsed = try? RequestOrigin(parsing: origin) else {
                    throw CacheProxyError(.invalidConfiguration, "the origin \(origin) is not scheme://host[:port] or null")
                }
                origins.insert(parsed)
            }
            return RequestPolicy(requestHosts: hosts, allowedOrigins: origins, controlToken: controlToken)
        }
    }
}
