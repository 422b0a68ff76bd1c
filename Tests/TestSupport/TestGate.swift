import Synchronization

/// Holds tasks at a point of a test until the test opens it: an origin's response part-way
/// through its body, a stream between two chunks. Tests wait for ``arrivals`` to know that
/// something has reached the gate, instead of sleeping for a guessed time.
public final class TestGate: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var next: UInt64 = 0
        var arrivals = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// How many waits have begun so far (including those that passed an open gate).
    public var arrivals: Int { state.withLock { $0.arrivals } }

    /// Lets every waiting task and every later one through.
    public func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the gate is open (at once when it is), or when the task is cancelled.
    public func wait() async {
        let identifier = state.withLock { state in
            state.arrivals += 1
            state.next += 1
            return state.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state in
                    if state.isOpen || Task.isCancelled { return true }
                    state.waiters[identifier] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: identifier) }?.resume()
        }
    }
}
