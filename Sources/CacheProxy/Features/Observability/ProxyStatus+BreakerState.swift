extension ProxyStatus {
    /// The state of an origin's circuit breaker, as the values of ``ProxyStatus/breakers`` and of
    /// the JSON object `breakers` give it (`closed`, `open` or `half-open`).
    public enum BreakerState: StatusState {
        /// `closed`: requests go through; the origin failed lately, fewer times in a row than
        /// ``CircuitBreakerConfiguration/failureThreshold`` (a breaker with no failure counted is
        /// not listed).
        case closed
        /// `open`: the origin failed the threshold's number of times in a row: requests are
        /// refused (served from the cache where it can) until the cool-down ends.
        case open
        /// `half-open`: the cool-down ended: one trial request goes through; its success closes
        /// the breaker, its failure opens it again.
        case halfOpen
        /// A state this version does not know, with its name (one a newer proxy reports).
        case unknown(String)

        public static let known: [BreakerState] = [.closed, .open, .halfOpen]

        public var rawValue: String {
            switch self {
            case .closed: "closed"
            case .open: "open"
            case .halfOpen: "half-open"
            case .unknown(let name): name
            }
        }
    }
}
