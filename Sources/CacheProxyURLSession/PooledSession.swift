import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// A `URLSession` that runs one ``Transfer`` at a time, with the delegate that hands that
/// transfer its task's events.
final class PooledSession: Sendable {
    let session: URLSession
    let delegate: SessionDelegate
    private let isClosed = Atomic(false)

    init(configuration: URLSessionConfiguration) {
        delegate = SessionDelegate()
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: Self.delegateQueue())
    }

    /// Starts `transfer`'s task on this session; `done` runs once the task has completed.
    func start(_ transfer: Transfer, task: URLSessionDataTask, done: @escaping @Sendable () -> Void) {
        delegate.begin(transfer, done: done)
        task.resume()
    }

    /// Cancels the request in flight, if any, and ends the session (a session keeps its
    /// delegate until it is invalidated). Returns at once: the work is done on another queue,
    /// because this may be called from the delegate, and invalidating waits for the session's
    /// work queue (on Linux one queue shared by every session of the process).
    func close() {
        guard !isClosed.exchange(true, ordering: .relaxed) else { return }
        let session = session
        let delegate = delegate
        DispatchQueue.global().async {
            // Its task's data callback may be waiting for the reader; it must stop waiting
            // before the task can be cancelled.
            delegate.cancelCurrent()
            // Not `invalidateAndCancel()`: it cancels every task the session still lists,
            // including one that has just completed, and swift-corelibs-foundation traps
            // when a cancellation meets a task that completed meanwhile.
            session.finishTasksAndInvalidate()
        }
    }

    /// The queue the delegate is called on: a serial one, so that a transfer's events come in
    /// order.
    private static func delegateQueue() -> OperationQueue {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        return queue
    }
}
