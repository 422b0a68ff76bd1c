import NIOCore

/// Runs a task's jobs on one NIO event loop.
///
/// A connection's task prefers the executor of its channel's event loop, so its code (parsing,
/// cache reads, writes to the channel) runs on the thread that owns the socket instead of
/// hopping to the cooperative pool and back at every read and write: each hop costs a thread
/// wake-up, which is most of the cost of serving a cached range.
final class EventLoopTaskExecutor: TaskExecutor {
    private let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        eventLoop.execute { job.runSynchronously(on: executor) }
    }
}
