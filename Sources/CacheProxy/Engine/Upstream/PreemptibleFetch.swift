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
    /// Set while the rest of the transfer ends soon (``TransferPace``): a start then waits for
    /// it to pause or end instead of cutting it.
    private let endsSoon = Atomic<Bool>(false)
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

    /// Whether the rest of the transfer ends soon, updated as its body arrives.
    func noteEndsSoon(_ soon: Bool) {
        endsSoon.store(soon, ordering: .relaxed)
    }

    /// Cuts the fetch (once; later calls do nothing), unless it ends soon: then it only pauses
    /// between two chunks, as a transfer that cannot be cut does, and a later call may cut it.
    func preempt() {
        guard !endsSoon.load(ordering: .relaxed) else { return }
        let (task, first) = state.withLock { state -> (Task<Void, any Error>?, Bool) in
            defer { state.isPreempted = true }
            return (state.task, !state.isPreempted)
        }
        guard first else { return }
        onPreempt()
        task?.cancel()
    }
}
