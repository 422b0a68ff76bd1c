import Synchronization

/// The fills running in tasks of their own, so that a server can stop them and wait for them
/// before it closes the store: a fill that outlived its store would only fail at its next write,
/// and its open entry file would keep the file's write lock until then.
final class FillTasks: Sendable {
    private struct State {
        var nextIdentifier = 0
        var running: [Int: Task<Void, Never>] = [:]
        var isStopped = false
    }

    private let state = Mutex(State())

    /// Runs `operation` in a task of its own, unless ``cancelAll()`` was called (the operation's
    /// fill is then dropped, which fails it for its followers).
    func run(_ operation: @escaping @Sendable () async -> Void) {
        state.withLock { state in
            guard !state.isStopped else { return }
            let identifier = state.nextIdentifier
            state.nextIdentifier += 1
            // The task removes itself under this lock, so never before it is inserted here.
            state.running[identifier] = Task {
                await operation()
                self.state.withLock { _ = $0.running.removeValue(forKey: identifier) }
            }
        }
    }

    /// Cancels every running fill and waits until all have ended; later ones do not start.
    func cancelAll() async {
        let running = state.withLock { state in
            state.isStopped = true
            return Array(state.running.values)
        }
        for task in running { task.cancel() }
        for task in running { await task.value }
    }
}
