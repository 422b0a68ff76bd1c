#if canImport(FoundationNetworking)
import Foundation

/// An operation queue that runs every block at once on the calling thread: given to a
/// `URLSession` on Linux as its delegate queue, it makes the delegate run on the session's
/// work queue, where libcurl's callbacks run.
///
/// That is how a transfer is held back on Linux: swift-corelibs-foundation's
/// `URLSessionTask.suspend()` takes the transfer out of libcurl, and `resume()` sends the request
/// again from the start (the body arrives twice), and a delegate that waits on an ordinary
/// queue only lets libcurl pile chunks up in that queue. A data callback that waits here stops
/// libcurl from reading the socket, and TCP stops the origin.
///
/// Nothing that runs on it may call a task's `cancel()`, `suspend()` or `resume()`: they wait
/// for the work queue they would be running on.
final class InlineOperationQueue: OperationQueue, @unchecked Sendable {
    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        block()
    }
}
#endif
