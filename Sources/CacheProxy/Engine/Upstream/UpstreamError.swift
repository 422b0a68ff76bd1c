/// Why an upstream fetch did not deliver what it was asked for.
struct UpstreamError: Error, Sendable, CustomStringConvertible {
    enum Code: Sendable, Hashable {
        /// No connection, a timeout before the response head, or an open circuit breaker.
        case unreachable
        /// The origin answered with a status the proxy passes on (4xx) or maps to 502 (5xx).
        case status(Int)
        /// The origin's response contradicts the request (a 206 for other bytes, a bad header).
        case invalidResponse
        /// The body ended or broke before the bytes it promised.
        case truncated
        /// A playlist larger than the configured limit.
        case tooLarge
        /// The store had no room for the bytes (everything left is pinned or being filled).
        case storeFull
        /// A hop is one the proxy must not fetch (`OriginGuard`: itself, link-local, private
        /// addresses on a shared server, a redirect off the allow-list).
        case refused
        /// The origin's answer may not be stored (`Cache-Control: no-store`, `Vary: *`,
        /// `private` on a shared proxy, or `Vary` on fields the entry was not keyed by): the
        /// response is passed through from the origin instead.
        case notStorable
    }

    var code: Code
    var message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    var description: String { message }
}
