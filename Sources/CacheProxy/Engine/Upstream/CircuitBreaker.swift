/// The circuit breaker of one origin, as a value-type state machine.
///
/// Closed, it lets every request through and counts consecutive network failures; at the
/// threshold it opens and refuses requests (the proxy then serves from cache at once instead of
/// waiting for connection timeouts). After the cool-down it is half-open: one trial request goes
/// through; its success closes the breaker, its failure opens it for another cool-down.
struct CircuitBreaker: Sendable {
    enum State: Sendable, Hashable {
        case closed(failures: Int)
        case open(until: ContinuousClock.Instant)
        case halfOpen(trialInFlight: Bool)
    }

    private(set) var state: State = .closed(failures: 0)
    let configuration: CircuitBreakerConfiguration

    init(configuration: CircuitBreakerConfiguration) {
        self.configuration = configuration
    }

    /// Whether a request may go to the origin now; a half-open breaker admits one trial.
    mutating func admit(now: ContinuousClock.Instant) -> Bool {
        switch state {
        case .closed:
            return true
        case .open(let until):
            guard now >= until else { return false }
            state = .halfOpen(trialInFlight: true)
            return true
        case .halfOpen(let trialInFlight):
            guard !trialInFlight else { return false }
            state = .halfOpen(trialInFlight: true)
            return true
        }
    }

    /// The origin answered (whatever the status): it is reachable.
    mutating func recordSuccess() {
        state = .closed(failures: 0)
    }

    /// A connection failed or timed out.
    mutating func recordFailure(now: ContinuousClock.Instant) {
        switch state {
        case .closed(let failures):
            state = failures + 1 >= configuration.failureThreshold ? .open(until: now + configuration.coolDown) : .closed(failures: failures + 1)
        case .open, .halfOpen:
            state = .open(until: now + configuration.coolDown)
        }
    }

    /// A trial that ended without telling anything (cancelled): let another one through.
    mutating func recordAbandoned() {
        if case .halfOpen = state { state = .halfOpen(trialInFlight: false) }
    }

    /// Whether requests pass freely (failures may be counting up to the threshold).
    var isClosed: Bool {
        if case .closed = state { true } else { false }
    }

    /// The state as the status report gives it.
    var reportedState: ProxyStatus.BreakerState {
        switch state {
        case .closed: .closed
        case .open: .open
        case .halfOpen: .halfOpen
        }
    }
}
