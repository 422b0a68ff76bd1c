import Synchronization

/// The circuit breakers of every origin the proxy has talked to, keyed by authority.
final class OriginBreakers: Sendable {
    private let breakers = Mutex<[String: CircuitBreaker]>([:])
    private let lastFailures = Mutex<[String: String]>([:])
    private let configuration: CircuitBreakerConfiguration
    /// Origins are forgotten beyond this many (the oldest closed ones first); a proxy for one
    /// player talks to a handful.
    private static let capacity = 1024

    init(configuration: CircuitBreakerConfiguration) {
        self.configuration = configuration
    }

    func admit(_ authority: String) -> Bool {
        breakers.withLock { breakers in
            breakers[authority, default: CircuitBreaker(configuration: configuration)].admit(now: .now)
        }
    }

    /// Whether the origin's breaker refuses requests now (without taking a half-open trial).
    func isOpen(_ authority: String) -> Bool {
        breakers.withLock { breakers in
            guard let breaker = breakers[authority] else { return false }
            switch breaker.state {
            case .closed: return false
            case .open(let until): return ContinuousClock.now < until
            case .halfOpen(let trialInFlight): return trialInFlight
            }
        }
    }

    /// Whether the origin's last request failed to connect or timed out, and none has been
    /// answered since (its breaker counts failures, or is open): the proxy's best knowledge
    /// that the origin cannot be reached now.
    func hasFailedSinceLastAnswer(_ authority: String) -> Bool {
        breakers.withLock { breakers in
            guard let breaker = breakers[authority] else { return false }
            // A request in flight leaves a breaker without failures (``admit(_:)`` makes one).
            if case .closed(0) = breaker.state { return false }
            return true
        }
    }

    /// Returns whether this closed the origin's breaker (it was open or half-open).
    @discardableResult
    func recordSuccess(_ authority: String) -> Bool {
        breakers.withLock { breakers in
            // A closed breaker with no failures is the default: no need to keep it.
            guard let previous = breakers.removeValue(forKey: authority) else { return false }
            return !previous.isClosed
        }
    }

    /// Returns whether this opened the origin's breaker (it was closed).
    @discardableResult
    func recordFailure(_ authority: String) -> Bool {
        breakers.withLock { breakers in
            if breakers.count >= Self.capacity, breakers[authority] == nil,
               let closed = breakers.first(where: { $0.value.isClosed }) {
                breakers[closed.key] = nil
            }
            let wasClosed = breakers[authority]?.isClosed ?? true
            breakers[authority, default: CircuitBreaker(configuration: configuration)].recordFailure(now: .now)
            return wasClosed && breakers[authority]?.isClosed == false
        }
    }

    /// How many origins' breakers are open (refusing requests or waiting for a trial's answer).
    var openCount: Int {
        breakers.withLock { breakers in
            breakers.values.count(where: { !$0.isClosed })
        }
    }

    /// Keeps why the origin's last request failed, to say why while its breaker is open.
    func noteFailure(_ reason: String, for authority: String) {
        lastFailures.withLock { reasons in
            if reasons.count >= Self.capacity, reasons[authority] == nil { reasons.removeAll() }
            reasons[authority] = reason
        }
    }

    /// Why the origin's last request failed, if one did.
    func lastFailure(_ authority: String) -> String? {
        lastFailures.withLock { $0[authority] }
    }

    func recordAbandoned(_ authority: String) {
        breakers.withLock { $0[authority]?.recordAbandoned() }
    }

    /// Origins whose breaker is not plainly closed, with its state name.
    var states: [String: ProxyStatus.BreakerState] {
        breakers.withLock { breakers in
            breakers.compactMapValues { breaker in
                if case .closed(0) = breaker.state { nil } else { breaker.reportedState }
            }
        }
    }
}
