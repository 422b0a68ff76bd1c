import CPinnedThread
import Foundation

/// Threads that run on one CPU only, to make a client connect from a known CPU.
enum PinnedThread {
    /// Whether this process may run on CPUs 0 and 1 (connection steering can then be observed).
    static var hasTwoCPUs: Bool { sparsecache_test_may_run_on(0) == 1 && sparsecache_test_may_run_on(1) == 1 }

    /// Restricts the calling thread to `cpu`; false when the system refuses.
    static func pinCurrentThread(to cpu: Int) -> Bool {
        sparsecache_test_pin_thread(Int32(cpu)) == 0
    }

    /// Runs `body` on a new thread that runs on `cpu` only, and returns what it returns.
    static func run<Value: Sendable>(on cpu: Int, _ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                guard pinCurrentThread(to: cpu) else {
                    continuation.resume(throwing: PinnedThreadError.refused(cpu))
                    return
                }
                continuation.resume(with: Result { try body() })
            }
            thread.start()
        }
    }
}

enum PinnedThreadError: Error {
    case refused(Int)
}
