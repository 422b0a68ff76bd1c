#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Standard error for a long-running server's log: lines gather in memory and leave in one
/// write every ``interval`` (and at exit), instead of one write each. A busy proxy logs a line
/// per request; writing them one by one would cost a system call per request.
final class BufferedStandardError: Sendable {
    /// How long a line may wait in the buffer.
    static let interval = Duration.milliseconds(50)

    private let pending = Mutex<[UInt8]>([])

    /// The stream a `StreamLogHandler` writes to.
    struct Stream: TextOutputStream, Sendable {
        let output: BufferedStandardError

        mutating func write(_ string: String) {
            output.pending.withLock { $0.append(contentsOf: string.utf8) }
        }
    }

    var stream: Stream { Stream(output: self) }

    /// Writes what has gathered. Only one caller at a time writes (``flushPeriodically()``, then
    /// the final flush once it has stopped), so lines keep their order.
    func flush() {
        let bytes = pending.withLock { pending -> [UInt8] in
            defer { pending.removeAll(keepingCapacity: true) }
            return pending
        }
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { return }
            written += result
        }
    }

    /// Flushes every ``interval`` until the calling task is cancelled.
    func flushPeriodically() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: Self.interval)
            flush()
        }
    }
}
