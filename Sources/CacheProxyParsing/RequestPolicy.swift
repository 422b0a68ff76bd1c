/// What the proxy lets a request do, decided from its head alone, before it is routed: the
/// defences against web pages on the same device (see Docs/SECURITY.md).
///
/// 1. **Host** (DNS rebinding): a `Host` that is not a name of this proxy gets `421`. Its names
///    are `localhost`, `127.0.0.1` and `[::1]` and the addresses it is reached at on the
///    connection, with the port it listens on, and the ``requestHosts`` it is configured with.
///    A request without `Host` passes: browsers always send one.
/// 2. **Cross-site requests**: on a ``RouteAccess/control`` route, a method other than GET, HEAD
///    and OPTIONS from a foreign `Origin` gets `403`, and one without
///    `Content-Type: application/json` (POST always, other methods when they carry a body or a
///    content type) gets `415`: a page can send neither without a CORS preflight, and only
///    ``allowedOrigins`` have theirs approved. An origin is allowed when it is listed, or when
///    it is the proxy itself (the request's own `Host`).
/// 3. **Control token**: with one configured, every control route needs
///    `Authorization: Bearer TOKEN`, else `401`; but the dashboard page (`GET /`), which holds no
///    data, so that a browser can open it.
public struct RequestPolicy: Sendable {
    /// Names requests may use for the proxy besides its loopback names and addresses: the host
    /// of its public URL and those it was told to accept. One without a port matches any port.
    public let requestHosts: [RequestAuthority]
    /// The origins whose pages may use the proxy across sites.
    public let allowedOrigins: Set<RequestOrigin>
    private let controlToken: [UInt8]?

    /// The loopback names of every proxy.
    static let loopbackNames: Set<String> = ["localhost", "127.0.0.1", "[::1]"]

    public init(requestHosts: [RequestAuthority] = [], allowedOrigins: Set<RequestOrigin> = [], controlToken: String? = nil) {
        self.requestHosts = requestHosts
        self.allowedOrigins = allowedOrigins
        self.controlToken = controlToken.map { Array($0.utf8) }
    }

    /// Whether `token` can be sent in an `Authorization: Bearer` header (RFC 6750 `b64token`).
    public static func isValidToken(_ token: String) -> Bool {
        !token.isEmpty && token.utf8.allSatisfy { ASCIIScanner.isAlphanumeric($0) || Array("-._~+/=".utf8).contains($0) }
    }

    /// The connection a request came on.
    public struct Listener: Sendable, Hashable {
        /// The port the proxy accepted the connection on.
        public var port: Int
        /// The proxy's addresses that name it besides the loopback names, as a `Host` writes
        /// them (an IPv6 address in brackets): the one the connection reached, the one it is
        /// bound to.
        public var addresses: [String]

        public init(port: Int, addresses: [String]) {
            self.port = port
            self.addresses = addresses
        }
    }

    /// The parts of a request head the policy reads, as received.
    public struct Request: Sendable {
        public var method: String
        public var target: String
        /// What the target's route needs: read from the route the connection parsed, or from
        /// ``RouteTable`` for the target.
        public var access: RouteAccess
        /// Every `Host` field (more than one is refused).
        public var hosts: [String]
        public var origin: String?
        public var contentType: String?
        public var authorization: String?
        /// Whether the request carries a body (a `Content-Length` above 0 or a `Transfer-Encoding`).
        public var hasBody: Bool
        /// Whether it is a CORS preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`).
        public var isPreflight: Bool

        public init(method: String, target: String, access: RouteAccess? = nil, hosts: [String], origin: String? = nil,
                    contentType: String? = nil, authorization: String? = nil, hasBody: Bool = false, isPreflight: Bool = false) {
            self.method = method
            self.target = target
            self.access = access ?? RouteAccess(target: target.utf8)
            self.hosts = hosts
            self.origin = origin
            self.contentType = contentType
            self.authorization = authorization
            self.hasBody = hasBody
            self.isPreflight = isPreflight
        }
    }

    /// Why a request is refused: the status, a one-line reason, and for `401` the
    /// `WWW-Authenticate` challenge.
    public struct Refusal: Sendable, Hashable {
        public var status: Int
        public var reason: String
        public var challenge: String?

        public init(status: Int, reason: String, challenge: String? = nil) {
            self.status = status
            self.reason = reason
            self.challenge = challenge
        }
    }

    public enum Verdict: Sendable, Hashable {
        /// Route it. `corsOrigin`, when set, is the request's `Origin`, allowed: the response
        /// names it in `Access-Control-Allow-Origin`.
        case pass(corsOrigin: String?)
        /// A preflight from an allowed origin: approve it.
        case approvePreflight(origin: String)
        case refuse(Refusal)
    }

    public func verdict(for request: Request, listener: Listener) -> Verdict {
        guard request.hosts.count <= 1 else { return .refuse(Refusal(status: 400, reason: "more than one Host header")) }
        var host: RequestAuthority?
        if let value = request.hosts.first {
            guard let authority = try? RequestAuthority(parsing: value.utf8) else {
                return .refuse(Refusal(status: 400, reason: "a malformed Host header"))
            }
            guard admits(authority, listener: listener) else { return .refuse(Self.misdirected(authority)) }
            host = authority
        }
        let corsOrigin = request.origin.flatMap { isAllowed(origin: $0, host: host) ? $0 : nil }
        if request.isPreflight, let origin = request.origin {
            guard let corsOrigin else { return .refuse(Self.foreign(origin, "send cross-origin requests here")) }
            return .approvePreflight(origin: corsOrigin)
        }
        guard request.access == .control else { return .pass(corsOrigin: corsOrigin) }
        if !["GET", "HEAD", "OPTIONS"].contains(request.method) {
            if let origin = request.origin, corsOrigin == nil {
                return .refuse(Self.foreign(origin, "change the proxy's state"))
            }
            if request.method == "POST" || request.hasBody || request.contentType != nil, !Self.isJSON(request.contentType) {
                return .refuse(Refusal(status: 415, reason: "a request that changes the proxy's state must be Content-Type: application/json"))
            }
        }
        // The dashboard page holds no data: its script reads /status and the other routes with the
        // token it takes from the page's `#token=` fragment, which browsers never send. A browser
        // cannot add the header to the page's own request, so the page itself needs no token.
        if Self.isDashboardPage(request) { return .pass(corsOrigin: corsOrigin) }
        if let refusal = authorizationRefusal(request.authorization) { return .refuse(refusal) }
        return .pass(corsOrigin: corsOrigin)
    }

    /// `GET /` or `HEAD /` with no query: the dashboard's HTML.
    static func isDashboardPage(_ request: Request) -> Bool {
        (request.method == "GET" || request.method == "HEAD") && request.target == "/"
    }

    /// Whether a `Host` value names this proxy: the check the raw-bytes hit path makes (its
    /// requests are plain GETs and HEADs of `/proxy`, so the Host is all that can refuse them).
    public func admitsHost(_ value: String, listener: Listener) -> Bool {
        guard let authority = try? RequestAuthority(parsing: value.utf8) else { return false }
        return admits(authority, listener: listener)
    }

    private func admits(_ authority: RequestAuthority, listener: Listener) -> Bool {
        if requestHosts.contains(where: { $0.matches(authority) }) { return true }
        guard (authority.port ?? 80) == listener.port else { return false }
        return Self.loopbackNames.contains(authority.host) || listener.addresses.contains(authority.host)
    }

    /// An origin listed, or the proxy's own: a page it served, whose origin is the `Host` its
    /// requests name.
    private func isAllowed(origin value: String, host: RequestAuthority?) -> Bool {
        guard let origin = try? RequestOrigin(parsing: value.utf8) else { return false }
        if allowedOrigins.contains(origin) { return true }
        guard case .tuple(let scheme, let authority) = origin, scheme == "http" || scheme == "https", let host else { return false }
        return authority == host
    }

    private func authorizationRefusal(_ header: String?) -> Refusal? {
        guard let controlToken else { return nil }
        guard let header else {
            return Refusal(status: 401, reason: "this route needs Authorization: Bearer <the proxy's control token>",
                           challenge: #"Bearer realm="sparsecache""#)
        }
        var scanner = ASCIIScanner(Array(header.utf8))
        guard scanner.consumeCaseInsensitive("bearer"), scanner.consume(UInt8(ascii: " ")) else {
            return Refusal(status: 401, reason: "the Authorization header must be Bearer <the proxy's control token>",
                           challenge: #"Bearer realm="sparsecache""#)
        }
        scanner.skipWhitespace()
        let given = Array(header.utf8.dropFirst(scanner.position))
        guard Self.constantTimeEquals(given, controlToken) else {
            return Refusal(status: 401, reason: "wrong control token", challenge: #"Bearer realm="sparsecache", error="invalid_token""#)
        }
        return nil
    }

    /// Compares without stopping at the first difference, so the time taken does not tell how
    /// much of a guess was right.
    private static func constantTimeEquals(_ given: [UInt8], _ token: [UInt8]) -> Bool {
        guard given.count == token.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(given, token) { difference |= a ^ b }
        return difference == 0
    }

    /// `application/json`, with or without parameters.
    static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.utf8.prefix { $0 != UInt8(ascii: ";") }
        var scanner = ASCIIScanner(Array(mediaType))
        scanner.skipWhitespace()
        guard scanner.consumeCaseInsensitive("application/json") else { return false }
        scanner.skipWhitespace()
        return scanner.isAtEnd
    }

    private static func misdirected(_ host: RequestAuthority) -> Refusal {
        let shown = String(host.description.prefix(100))
        return Refusal(status: 421, reason: "\(shown) is not a name of this proxy (a DNS rebinding page?); serve it with --allow-request-host \(shown)")
    }

    private static func foreign(_ origin: String, _ what: String) -> Refusal {
        let shown = String(origin.prefix(100).map { $0.isASCII && !$0.isNewline ? $0 : "?" })
        return Refusal(status: 403, reason: "pages from \(shown) may not \(what); allow them with --allow-origin \(shown)")
    }
}
