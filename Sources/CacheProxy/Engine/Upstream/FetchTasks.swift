import Synchronization

/// The fetches in flight. They are not children of the request that started them (followers of
/// the same bytes depend on them after that client leaves), so the proxy keeps them here to
/// cancel and await them at shutdown.
final class FetchTasks: Sendable {
    private struct Tracked {
        let task: Task<UpstreamError?, Never>
        /// Who the fetch is for; nil for a fetch no client waits for (a playlist's revalidation).
        let ownership: FetchOwnership?

        /// Whether no client is receiving what the fetch brings: nobody asked for it, or its
        /// client left and no player follows it. A graceful shutdown does not wait for it.
        var isUnreceived: Bool {
            ownership?.noPlayerWaits ?? true
        }
    }

    private struct State {
        var tasks: [UInt64: Tracked] = [:]
        /// Tasks that ended before they could be registered.
        var ended: Set<UInt64> = []
        var next: UInt64 = 0
        var isClosed = false
        /// Cancels, while a graceful shutdown drains, the fetches whose clients leave.
        var sweeper: Task<Void, Never>?
    }

    private let state = Mutex(State())

    /// Starts `operation` as a tracked task; returns nil once shutdown began.
    /// - Parameter ownership: who the fetch is for (nil: no client waits for it).
    func start(
        ownership: FetchOwnership? = nil, _ operation: @escaping @Sendable () async -> UpstreamError?
    ) -> Task<UpstreamError?, Never>? {
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
            if state.ended.remove(identifier) == nil { state.tasks[identifier] = Tracked(task: task, ownership: ownership) }
        }
        return task
    }

    var count: Int { state.withLock { $0.tasks.count } }

    /// A graceful shutdown began: cancels at once every fetch no client is receiving (what it
    /// stored stays), and, until ``cancelAll()``, each fetch whose last client leaves later,
    /// checked every `interval`. A player that followed a cancelled fetch without being counted
    /// claims the bytes again and fetches them itself, as after any failed fetch of another.
    /// - Returns: how many fetches were cancelled at once.
    func cancelUnreceived(thenEvery interval: Duration = .milliseconds(50), onLaterCancel: @escaping @Sendable (Int) -> Void) -> Int {
        let cancelled = cancelUnreceivedNow()
        let sweeper = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let self, !Task.isCancelled else { return }
                let later = self.cancelUnreceivedNow()
                if later > 0 { onLaterCancel(later) }
            }
        }
        let kept = state.withLock { state -> Bool in
            guard !state.isClosed, state.sweeper == nil else { return false }
            state.sweeper = sweeper
            return true
        }
        if !kept { sweeper.cancel() }
        return cancelled
    }

    private func cancelUnreceivedNow() -> Int {
        let unreceived = state.withLock { state in state.tasks.values.filter { !$0.task.isCancelled && $0.isUnreceived }.map(\.task) }
        for task in unreceived { task.cancel() }
        return unreceived.count
    }

    /// Cancels every fetch and waits for them to end.
    func cancelAll() async {
        let (tasks, sweeper) = state.withLock { state in
            state.isClosed = true
            defer { state.sweeper = nil }
            return (state.tasks.values.map(\.task), state.sweeper)
        }
        sweeper?.cancel()
        for task in tasks { task.cancel() }
        for task in tasks { _ = await task.value }
    }
}
