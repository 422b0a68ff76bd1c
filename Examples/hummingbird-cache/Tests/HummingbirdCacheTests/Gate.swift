import Synchronization

/// A one-shot barrier: tasks that ``wait()`` resume when it is opened, with the value given.
final class Gate<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var waiters: [CheckedContinuation<Value, Never>] = []
    }

    private let state = Mutex(State())

    func wait() async -> Value {
        await withCheckedContinuation { continuation in
            let value = state.withLock { state -> Value? in
                if state.value == nil { state.waiters.append(continuation) }
                return state.value
            }
            if let value { continuation.resume(returning: value) }
        }
    }

    func open(with value: Value) {
        let waiters = state.withLock { state in
            state.value = value
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: value) }
    }
}
