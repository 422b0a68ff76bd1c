import Synchronization

/// A lane of upstream requests: at most `capacity` run at once, the rest wait in order.
///
/// The proxy has two: segments share a capped lane, while playlists, init segments, keys and
/// probes take an express lane of their own, so they never queue behind a burst of segments.
final class UpstreamLane: Sendable {
    enum Kind: String, Sendable {
        case express
        case segment
    }

    let kind: Kind
    let capacity: Int
    private let state = Mutex(State())

    private struct State {
        var active = 0
        var nextTicket: UInt64 = 0
        var waiters: [(ticket: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
        var completed: UInt64 = 0
    }

    init(kind: Kind, capacity: Int) {
        self.kind = kind
        self.capacity = max(1, capacity)
    }

    /// Waits for a place in the lane, runs `body`, and gives the place back.
    func run<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async throws {
        let ticket = state.withLock { state -> UInt64? in
            if state.active < capacity && state.waiters.isEmpty {
                state.active += 1
                return nil
            }
            state.nextTicket += 1
            return state.nextTicket
        }
        guard let ticket else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Decision { case proceed, wait, cancel }
                let decision = state.withLock { state -> Decision in
                    if Task.isCancelled { return .cancel }
                    // A place may have come free since the first look.
                    if state.active < capacity && state.waiters.isEmpty {
                        state.active += 1
                        return .proceed
                    }
                    state.waiters.append((ticket, continuation))
                    return .wait
                }
                switch decision {
                case .proceed: continuation.resume()
                case .wait: break
                case .cancel: continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.waiters.firstIndex(where: { $0.ticket == ticket }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    private func release() {
        // The place passes straight to the first waiter, so `active` never dips below capacity
        // while requests wait.
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            state.completed += 1
            guard !state.waiters.isEmpty else {
                state.active -= 1
                return nil
            }
            return state.waiters.removeFirst().continuation
        }
        next?.resume()
    }

    /// Requests running and waiting now, and completed so far.
    var snapshot: (active: Int, waiting: Int, completed: UInt64) {
        state.withLock { ($0.active, $0.waiters.count, $0.completed) }
    }
}
