/// What a route declares besides how its parameters parse: who may use it, the metrics label it
/// counts under, how large a body it reads, whether other methods than GET and HEAD reach its
/// responder, and how its errors are written. A request carries its route's traits from the edge
/// of the connection on (``RequestRoute``), so every handler reads them instead of classifying
/// the target again.
public struct RouteTraits: Sendable, Hashable {
    /// The guards the route needs (``RequestPolicy``).
    public var access: RouteAccess
    /// The `route` label of `sparsecache_requests_total`.
    public var label: RouteLabel
    /// The largest `POST` body the connection reads for it.
    public var body: BodyLimit
    /// Whether methods other than GET and HEAD reach the responder.
    public var methods: Methods
    /// How its error responses are written.
    public var errors: ErrorFormat

    public init(access: RouteAccess, label: RouteLabel, body: BodyLimit = .none, methods: Methods = .getAndHead, errors: ErrorFormat) {
        self.access = access
        self.label = label
        self.body = body
        self.methods = methods
        self.errors = errors
    }

    /// How much of a `POST` body the connection reads before it gives up on it (the responder
    /// then answers 413).
    public enum BodyLimit: Sendable, Hashable {
        /// None: a body is read to its end and dropped.
        case none
        /// A fixed number of bytes.
        case bytes(Int)
        /// `PrefetchRequest.Limits.maximumBodyBytes`, as the proxy is configured.
        case prefetchRequest
        /// `PlaybackSessionRequest.Limits.maximumBodyBytes`, as the proxy is configured.
        case sessionRequest

        /// The limit in bytes under the proxy's configured limits; 0 for ``none``.
        public func maximumBytes(prefetch: PrefetchRequest.Limits, sessions: PlaybackSessionRequest.Limits) -> Int {
            switch self {
            case .none: 0
            case .bytes(let count): count
            case .prefetchRequest: prefetch.maximumBodyBytes
            case .sessionRequest: sessions.maximumBodyBytes
            }
        }
    }

    /// Which methods reach the route's responder.
    public enum Methods: Sendable, Hashable {
        /// GET and HEAD; any other method is answered 405 before the target's parameters are
        /// looked at.
        case getAndHead
        /// Every method: the responder says which it takes.
        case any
    }

    /// How a route's errors are written.
    public enum ErrorFormat: Sendable, Hashable {
        /// `{"error": "...", "field": ...}`: the control routes, read by programs.
        case json
        /// One line of plain text: what players and people get.
        case text
    }
}
