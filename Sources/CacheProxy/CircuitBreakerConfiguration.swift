/// When the proxy stops asking an unreachable origin, and when it tries again.
public struct CircuitBreakerConfiguration: Sendable, Hashable {
    /// Consecutive connection failures or timeouts that open the breaker. Default 3.
    public var failureThreshold: Int
    /// How long an open breaker refuses requests before it lets one trial through. Default 10 s.
    public var coolDown: Duration

    public init(failureThreshold: Int = 3, coolDown: Duration = .seconds(10)) {
        self.failureThreshold = failureThreshold
        self.coolDown = coolDown
    }
}
