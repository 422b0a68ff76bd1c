import Synchronization

/// An origin transfer that ``LinkScheduler`` can cut at once, wherever it waits: for the
/// origin's answer (a phone's link takes 100-200 ms before the first byte, then the answer's
/// first window arrives whether or not the transfer reads it) or for its next chunk. The fetch
/// runs as a task of its own, which ``preempt()`` cancels.
final class PreemptibleFetch: Sendable {
    private struct State {
        var task: Task<Void, any Error>?
        var isPreempted = false
    }

    private let state = Mutex(State())
    /// Called once, when the fetch is cut: its caller counts it and fetches the gap again at its
    /// next turn, without counting a failure.
    private let onPreempt: @Sendable () -> Void

    init(onPreempt: @escaping @Sendable () -> Void) {
        self.onPreempt = onPreempt
    }

    /// Runs `body`; throws `CancellationError` when it was cut.
    func run(_ body: @escaping @Sendable () async throws -> Void) async throws {
        let task = Task { try await body() }
        let cutAlready = state.withLock { state in
            state.task = task
            return state.isPreempted
        }
        if cutAlready { task.cancel() }
        try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
        if state.withLock({ $0.isPreempted }) { throw CancellationError() }
    }

    /// Cuts the fetch (once; later calls do nothing).
    func preempt() {
        let (task, first) = state.withLock { state -> (Task<Void, any Error>?, Bool) in
            defer { state.isPreempted = true }
            return (state.task, !state.isPreempted)
        }
        guard first else { return }
        onPreempt()
        task?.cancel()
    }
}
