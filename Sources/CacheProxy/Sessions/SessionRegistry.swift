import Synchronization

/// The proxy's playback sessions: open ones by ID, and the last closed ones (so that an app can
/// still read a session's final state). A sweeper closes sessions whose idle timeout passed; it
/// runs only while sessions are open.
final class SessionRegistry: Sendable {
    private struct State {
        var open: [String: SessionEngine] = [:]
        /// Closed sessions' final states, oldest first.
        var closed: [PlaybackSessionStatus] = []
        var sweeper: Task<Void, Never>?
        var isShutDown = false
    }

    /// How many closed sessions are remembered.
    static let closedKept = 64
    /// How often idle sessions are looked for.
    static let sweepInterval: Duration = .milliseconds(250)

    private let state = Mutex(State())

    /// Why a session could not be added.
    enum Refusal: Error {
        case shuttingDown
        case tooMany(Int)
    }

    /// Adds an opened session, unless the proxy is shutting down or `limit` sessions are open
    /// (the caller then closes it).
    func add(_ engine: SessionEngine, limit: Int) -> Refusal? {
        state.withLock { state in
            guard !state.isShutDown else { return .shuttingDown }
            guard state.open.count < limit else { return .tooMany(limit) }
            state.open[engine.id] = engine
            if state.sweeper == nil {
                state.sweeper = Task { [weak self] in await self?.sweep() }
            }
            return nil
        }
    }

    func session(_ id: String) -> SessionEngine? {
        state.withLock { $0.open[id] }
    }

    var openSessions: [SessionEngine] {
        state.withLock { Array($0.open.values) }.sorted { $0.id < $1.id }
    }

    var closedSessions: [PlaybackSessionStatus] {
        state.withLock { $0.closed }
    }

    func closedSession(_ id: String) -> PlaybackSessionStatus? {
        state.withLock { $0.closed.last { $0.id == id } }
    }

    /// Closes the session `id` and returns its final state; nil for an unknown ID.
    func close(_ id: String) -> PlaybackSessionStatus? {
        guard let engine = state.withLock({ $0.open.removeValue(forKey: id) }) else { return nil }
        engine.close()
        let final = engine.status
        state.withLock { state in
            state.closed.append(final)
            if state.closed.count > Self.closedKept { state.closed.removeFirst(state.closed.count - Self.closedKept) }
        }
        return final
    }

    /// Closes every session and stops the sweeper: the proxy is stopping. Returns how many
    /// sessions were open and how many of their fetches were cancelled (none the second time).
    @discardableResult
    func shutdown() async -> (sessions: Int, fetches: Int) {
        let (engines, sweeper) = state.withLock { state in
            state.isShutDown = true
            defer {
                state.open.removeAll()
                state.sweeper = nil
            }
            return (Array(state.open.values), state.sweeper)
        }
        sweeper?.cancel()
        let fetches = engines.reduce(0) { $0 + $1.close() }
        await sweeper?.value
        return (engines.count, fetches)
    }

    private func sweep() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: Self.sweepInterval)
            let now = ContinuousClock.now
            let (idle, isEmpty) = state.withLock { state in
                let idle = state.open.values.filter { $0.isIdle(at: now) }.map(\.id)
                return (idle, state.open.count == idle.count)
            }
            for id in idle { _ = close(id) }
            if isEmpty {
                // Nothing left to watch: stop, unless a session was added meanwhile.
                let stopped = state.withLock { state -> Bool in
                    guard state.open.isEmpty else { return false }
                    state.sweeper = nil
                    return true
                }
                if stopped { return }
            }
        }
    }
}
