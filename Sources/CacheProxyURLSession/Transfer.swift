import CacheProxy
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import Synchronization

/// One request of a ``URLSessionOriginClient``, from the data task's start to the end of its
/// body: turns the session delegate's callbacks into the response head and a stream of body
/// chunks, times the head and the body's silences, and (on Apple platforms) suspends the task
/// while too many bytes wait for the reader.
///
/// Its state changes under one lock; what the changes call for (resuming the caller, ending
/// the stream, cancelling the task) is done after the lock is released, because those calls
/// can come back into this object (a stream's end calls its termination handler).
///
/// Linux has no way to hold a transfer back: swift-corelibs-foundation's
/// `URLSessionTask.suspend()` takes the transfer out of libcurl and `resume()` sends the request
/// again from the start (the body would arrive twice), and a delegate that waits stops every
/// `URLSession` of the process, which share one work queue. There the body is buffered for the
/// reader as fast as it arrives.
final class Transfer: Sendable {
    private struct State {
        enum Phase {
            case created
            case waitingForHead(CheckedContinuation<OriginResponse, any Error>)
            case streaming
            case ended
        }

        var phase = Phase.created
        var task: URLSessionDataTask?
        var headTimer: Scheduled<Void>?
        var readTimer: Scheduled<Void>?
        /// Body bytes handed to the stream that the reader has not taken yet.
        var buffered = 0
        var received: Int64 = 0
        /// The body length the head announced, when the body arrives as sent.
        var expectedLength: Int64?
        /// When the origin last sent a byte, or the transfer was last let go on.
        var lastProgress = NIODeadline.now()
        var isHeldBack = false

        /// Whether every byte the head announced has arrived: the task is completing by itself.
        var hasWholeBody: Bool { expectedLength.map { received >= $0 } ?? false }

        /// Ends the transfer: what must be released, resumed or cancelled afterwards.
        mutating func end() -> Ending {
            // A task that is completing is not cancelled: swift-corelibs-foundation traps when
            // a cancellation meets a task that completed meanwhile (a reader that stops after
            // the last byte, before the end of the stream, would otherwise race it).
            let ending = Ending(phase: phase, task: hasWholeBody ? nil : task, timers: [headTimer, readTimer].compactMap { $0 })
            phase = .ended
            headTimer = nil
            readTimer = nil
            return ending
        }
    }

    /// What ending a transfer leaves to do once the lock is released.
    private struct Ending {
        var phase: State.Phase
        var task: URLSessionDataTask?
        var timers: [Scheduled<Void>]

        func release() {
            for timer in timers { timer.cancel() }
        }
    }

    private let state = Mutex(State())
    private let readTimeout: TimeAmount
    private let bufferLimit: Int
    private let eventLoop: any EventLoop
    private let body: AsyncThrowingStream<ByteBuffer, any Error>
    private let bodyInput: AsyncThrowingStream<ByteBuffer, any Error>.Continuation

    /// - Parameters:
    ///   - readTimeout: the longest silence of the body.
    ///   - bufferLimit: the most bytes that wait for the reader before the task is suspended
    ///     (Apple platforms).
    ///   - eventLoop: runs the timers.
    init(readTimeout: TimeAmount, bufferLimit: Int, eventLoop: any EventLoop) {
        self.readTimeout = readTimeout
        self.bufferLimit = bufferLimit
        self.eventLoop = eventLoop
        (body, bodyInput) = AsyncThrowingStream.makeStream()
        // A reader whose task is cancelled while it waits for a chunk ends the request.
        bodyInput.onTermination = { [weak self] termination in
            if case .cancelled = termination { self?.cancel() }
        }
    }

    /// Sends `request` on `session` and returns once the response head arrived; `done` runs
    /// when the task has completed, whenever that is.
    func run(
        _ request: URLRequest, deadline: NIODeadline, on session: PooledSession, done: @escaping @Sendable () -> Void
    ) async throws -> OriginResponse {
        let task = session.session.dataTask(with: request)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let isCancelled = state.withLock { state in
                    state.task = task
                    guard case .created = state.phase else { return true }
                    state.phase = .waitingForHead(continuation)
                    state.headTimer = eventLoop.scheduleTask(deadline: deadline) { [weak self] in
                        self?.fail(OriginClientError(.responseTimeout, detail: "no response head before the deadline"))
                    }
                    return false
                }
                // The task runs even when the caller is gone already: its completion is what
                // gives the session back.
                session.start(self, task: task, done: done)
                if isCancelled {
                    continuation.resume(throwing: CancellationError())
                    DispatchQueue.global().async { task.cancel() }
                }
            }
        } onCancel: {
            cancel()
        }
    }

    /// Cancels the request: the caller gets `CancellationError` (from ``run`` or from the
    /// body), and the task's connection is closed. Nothing happens once the transfer ended.
    func cancel() {
        fail(CancellationError())
    }

    /// Ends the transfer with `error`, for the caller waiting for the head or for the reader
    /// of the body, and cancels the task.
    private func fail(_ error: any Error) {
        let ending = state.withLock { $0.end() }
        ending.release()
        switch ending.phase {
        case .created:
            break
        case .waitingForHead(let continuation):
            continuation.resume(throwing: error)
        case .streaming:
            bodyInput.finish(throwing: error)
        case .ended:
            return
        }
        guard let task = ending.task else { return }
        // Not here: this may run on an event loop (a timer), and `cancel()` may wait for the
        // session's work queue.
        DispatchQueue.global().async { task.cancel() }
    }

    // MARK: The session delegate's events

    func receivedHead(_ response: URLResponse) {
        guard let response = response as? HTTPURLResponse else {
            fail(OriginClientError(.other, detail: "not an HTTP response: \(response)"))
            return
        }
        let head = ReceivedHead(response)
        let answer = OriginResponse(status: head.status, headers: head.headers, body: OriginBody(ResponseBody(body, transfer: self)))
        let delivery: (CheckedContinuation<OriginResponse, any Error>, Scheduled<Void>?)? = state.withLock { state in
            guard case .waitingForHead(let continuation) = state.phase else { return nil }
            state.phase = .streaming
            state.expectedLength = head.expectedLength
            state.lastProgress = .now()
            let headTimer = state.headTimer
            state.headTimer = nil
            state.readTimer = scheduleSilenceCheck(at: state.lastProgress + readTimeout)
            return (continuation, headTimer)
        }
        guard let (continuation, headTimer) = delivery else { return }
        headTimer?.cancel()
        continuation.resume(returning: answer)
    }

    /// A body chunk from the network.
    func received(_ data: Data) {
        var chunk = ByteBufferAllocator().buffer(capacity: data.count)
        data.withUnsafeBytes { _ = chunk.writeBytes($0) }
        let isStreaming = state.withLock { state in
            guard case .streaming = state.phase else { return false }
            state.buffered += data.count
            state.received += Int64(data.count)
            state.lastProgress = .now()
            #if !canImport(FoundationNetworking)
            if state.buffered > bufferLimit, !state.isHeldBack {
                state.isHeldBack = true
                // Under the lock, so that the reader's `resume()` cannot come first.
                state.task?.suspend()
            }
            #endif
            return true
        }
        if isStreaming { bodyInput.yield(chunk) }
    }

    /// The reader took `count` bytes: resumes a suspended task once most of the buffer is
    /// read, so that it goes on with room for several network reads.
    func consumed(_ count: Int) {
        state.withLock { state in
            state.buffered -= count
            guard state.isHeldBack, state.buffered <= bufferLimit / 4 else { return }
            state.isHeldBack = false
            // The origin was not silent while the task was suspended.
            state.lastProgress = .now()
            state.task?.resume()
        }
    }

    /// The task completed, with `error` or not; `response` is the task's, for a head that
    /// never came through the delegate (Linux: a `3xx` without `Location`).
    func completed(error: (any Error)?, response: URLResponse?) {
        if error == nil, let response, state.withLock({ if case .waitingForHead = $0.phase { true } else { false } }) {
            receivedHead(response)
            // Its body was not handed on either; what did arrive is not counted against it.
            state.withLock { $0.expectedLength = nil }
        }
        let ending = state.withLock { state in
            let length = (received: state.received, expected: state.expectedLength)
            return (state.end(), length)
        }
        ending.0.release()
        switch ending.0.phase {
        case .created, .ended:
            return
        case .waitingForHead(let continuation):
            continuation.resume(throwing: OriginClientError.translating(error ?? URLError(.badServerResponse), afterHead: false))
        case .streaming:
            if let error {
                bodyInput.finish(throwing: OriginClientError.translating(error, afterHead: true))
            } else if let expected = ending.1.expected, ending.1.received < expected {
                bodyInput.finish(throwing: OriginClientError(
                    .connectionClosed, detail: "the body ended at \(ending.1.received) of \(expected) bytes"))
            } else {
                bodyInput.finish()
            }
        }
    }

    // MARK: Timers

    private func scheduleSilenceCheck(at deadline: NIODeadline) -> Scheduled<Void> {
        eventLoop.scheduleTask(deadline: deadline) { [weak self] in self?.checkSilence() }
    }

    /// Fails the transfer when the origin has been silent for the read timeout; otherwise
    /// checks again when it would have been. Time held back for the reader does not count.
    private func checkSilence() {
        let isSilent = state.withLock { state -> Bool in
            guard case .streaming = state.phase else { return false }
            let now = NIODeadline.now()
            let limit = state.isHeldBack ? now + readTimeout : state.lastProgress + readTimeout
            guard limit <= now else {
                state.readTimer = scheduleSilenceCheck(at: limit)
                return false
            }
            return true
        }
        if isSilent {
            fail(OriginClientError(.readTimeout, detail: "the body was silent for longer than \(readTimeout)"))
        }
    }
}
