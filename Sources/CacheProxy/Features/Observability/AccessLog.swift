import Logging
import Synchronization

/// The access log: one line per request, at `info`, through swift-log (format:
/// ``AccessLogRecord/line()``).
///
/// Responses on the event loop only append a record to a buffer: a short lock, no formatting,
/// no I/O, and no wake-up of another thread while requests keep coming. A task off the event
/// loop (``run()``) takes the whole buffer at once, formats its records and hands them to the
/// logger, then waits ``batchInterval`` for the next batch; only when it finds nothing does it
/// sleep until the next record wakes it. So the logger's own I/O never delays a response, and
/// under load the event loop pays for neither a thread wake-up nor a line. When the writer
/// falls more than ``capacity`` records behind, newer records are dropped and counted, and the
/// count is logged as a warning: a log must never make the proxy run out of memory.
final class AccessLog: Sendable {
    /// The most records waiting to be written.
    static let capacity = 1 << 16
    /// How long the writer lets records gather after writing a batch: a line reaches the log at
    /// most this much later than its response ended (or at once, after a quiet spell).
    static let batchInterval = Duration.milliseconds(20)

    private let logger: Logger
    private let state = Mutex(State())

    private struct State {
        var pending: [AccessLogRecord] = []
        /// The writer, while it waits for records.
        var writer: CheckedContinuation<Void, Never>?
        var dropped = 0
        var isFinished = false
    }

    init(logger: Logger) {
        self.logger = logger
    }

    func append(_ record: AccessLogRecord) {
        let writer = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.pending.count < Self.capacity else {
                state.dropped += 1
                return nil
            }
            state.pending.append(record)
            defer { state.writer = nil }
            return state.writer
        }
        writer?.resume()
    }

    /// Writes records as they come until ``finish()`` is called, then writes what is left and
    /// returns.
    func run() async {
        var batch: [AccessLogRecord] = []
        while true {
            let (dropped, isFinished) = await take(into: &batch)
            for index in batch.indices {
                logger.info("\(batch[index].line())")
            }
            batch.removeAll(keepingCapacity: true)
            if dropped > 0 {
                logger.warning("access log: \(dropped) lines dropped, the log could not keep up with the requests")
            }
            if isFinished { return }
            // Let the next batch gather; ``finish()`` during the wait costs at most this much.
            try? await Task.sleep(for: Self.batchInterval)
        }
    }

    /// Stops ``run()`` once everything appended before is written.
    func finish() {
        let writer = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.isFinished = true
            defer { state.writer = nil }
            return state.writer
        }
        writer?.resume()
    }

    /// Waits for records, then swaps the buffer with `batch` (empty, and keeping its capacity,
    /// so that neither side allocates in a steady state).
    private func take(into batch: inout [AccessLogRecord]) async -> (dropped: Int, isFinished: Bool) {
        while true {
            let taken = state.withLock { state -> (Int, Bool)? in
                guard !state.pending.isEmpty || state.isFinished else { return nil }
                swap(&batch, &state.pending)
                defer { state.dropped = 0 }
                return (state.dropped, state.isFinished)
            }
            if let taken { return taken }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    guard state.pending.isEmpty && !state.isFinished else { return true }
                    state.writer = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        }
    }
}

extension AccessLog {
    /// The record of a response answered on the event loop, appended once it is written.
    struct Pending: Sendable {
        let log: AccessLog
        var record: AccessLogRecord

        /// The response was handed to the connection at `firstByte` and has now been written.
        func written(firstByte: ContinuousClock.Instant) {
            var record = record
            record.firstByte = firstByte
            record.ended = .now
            log.append(record)
        }
    }
}
