import Dispatch
import Synchronization

/// A one-shot event a thread waits for without holding any lock: the end of the I/O another
/// thread does on a file name (an open, a creation, a removal) outside the store's lock.
final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var waiting = 0
    }

    private let state = Mutex(State())
    private let semaphore = DispatchSemaphore(value: 0)

    /// Blocks until the gate opens (at once when it is open).
    func wait() {
        let mustWait = state.withLock { state in
            guard !state.isOpen else { return false }
            state.waiting += 1
            return true
        }
        if mustWait { semaphore.wait() }
    }

    /// Opens the gate and releases every thread waiting for it.
    func open() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waiting = 0 }
            return state.waiting
        }
        for _ in 0..<waiting { semaphore.signal() }
    }
}
