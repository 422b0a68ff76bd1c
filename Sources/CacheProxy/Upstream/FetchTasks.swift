import Synchronization

/// The fetches in flight. They are not children of the request that started them (followers of
/// the same bytes depend on them after that client leaves), so the proxy keeps them here to
/// cancel and await them at shutdown.
final class FetchTasks: Sendable {
    private struct State {
        var tasks: [UInt64: Task<UpstreamError?, Never>] = [:]
        /// Tasks that ended before they could be registered.
        var ended: Set<UInt64> = []
        var next: UInt64 = 0
        var isClosed = false
    }

    private let state = Mutex(State())

    /// Starts `operation` as a tracked task; returns nil once shutdown began.
    func start(_ operation: @escaping @Sendable () async -> UpstreamError?) -> Task<UpstreamError?, Never>? {
        let identifier = state.withLock { state -> UInt64? in
            guard !state.isClosed else { return nil }
            state.next += 1
            return state.next
        }
        guard let identifier else { return nil }
        let task = Task {
            let result = await operation()
            self.state.withLock { state in
                if state.tasks.removeValue(forKey: identifier) == nil { state.ended.insert(identifier) }
            }
            return result
        }
        state.withLock { state in
            if state.ended.remove(identifier) == nil { state.tasks[identifier] = task }
        }
        return task
    }

    var count: Int { state.withLock { $0.tasks.count } }

    /// Cancels every fetch and waits for them to end.
    func cancelAll() async {
        let tasks = state.withLock { state in
            state.isClosed = true
            return Array(state.tasks.values)
        }
        for task in tasks { task.cancel() }
        for task in tasks { _ = await task.value }
    }
}
