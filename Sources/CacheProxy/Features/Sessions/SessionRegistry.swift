import Synchronization

/// The proxy's playback sessions: open ones by ID, and the last closed ones (so that an app can
/// still read a session's final state). A sweeper suspends sessions whose idle timeout passed
/// (their fetches stop; their URLs keep working, and their player's next request resumes them);
/// it runs only while active sessions are open. Idle sessions count towards the limit of open
/// sessions, and the least recently used one is closed when a new session needs its place.
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
    /// and none of them is idle (the caller then closes it). At the limit, the idle session
    /// whose player made its last request longest ago is closed to make room.
    func add(_ engine: SessionEngine, limit: Int) -> Refusal? {
        let added = state.withLock { state -> Result<SessionEngine?, Refusal> in
            guard !state.isShutDown else { return .failure(.shuttingDown) }
            var evicted: SessionEngine?
            if state.open.count >= limit {
                guard let idlest = Self.leastRecentlyUsedIdle(in: state.open) else { return .failure(.tooMany(limit)) }
                evicted = state.open.removeValue(forKey: idlest.id)
            }
            state.open[engine.id] = engine
            startSweeper(&state)
            return .success(evicted)
        }
        switch added {
        case .failure(let refusal):
            return refusal
        case .success(let evicted):
            if let evicted { retire(evicted) }
            return nil
        }
    }

    /// Whether a session could be added now: fewer than `limit` are open, or one is idle.
    func hasRoom(limit: Int) -> Bool {
        state.withLock { state in state.open.count < limit || state.open.values.contains { $0.isSuspended } }
    }

    /// A request of `engine`'s player arrived: the session's idle clock starts again, and an
    /// idle session resumes (its buffering too). Returns whether this request resumed it.
    @discardableResult
    func activate(_ engine: SessionEngine) -> Bool {
        guard engine.touch() else { return false }
        state.withLock { state in
            if !state.isShutDown { startSweeper(&state) }
        }
        return true
    }

    private func startSweeper(_ state: inout State) {
        if state.sweeper == nil {
            state.sweeper = Task { [weak self] in await self?.sweep() }
        }
    }

    private static func leastRecentlyUsedIdle(in open: [String: SessionEngine]) -> SessionEngine? {
        open.values.filter(\.isSuspended).min { $0.lastActivity < $1.lastActivity }
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
        return retire(engine)
    }

    /// Closes a session taken out of the open ones and remembers its final state.
    @discardableResult
    private func retire(_ engine: SessionEngine) -> PlaybackSessionStatus {
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
            let idle = state.withLock { state in state.open.values.filter { $0.isIdle(at: now) } }
            for engine in idle { engine.suspend() }
            // Nothing active left to watch: stop, unless a session was added or resumed
            // meanwhile (both start a sweeper only when none is set, so this check and the
            // clearing happen under the lock they take).
            let stopped = state.withLock { state -> Bool in
                guard !state.open.values.contains(where: { !$0.isSuspended }) else { return false }
                state.sweeper = nil
                return true
            }
            if stopped { return }
        }
    }
}
