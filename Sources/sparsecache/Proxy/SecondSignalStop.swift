#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging

/// `serve`'s answer to a second SIGINT or SIGTERM: the first starts the graceful shutdown (its
/// `ServiceGroup` drains the responses in flight for up to the grace period); a second one,
/// from an operator who will not wait (Ctrl-C again) or a service manager escalating, ends the
/// process at once, as nginx, Caddy and most servers do.
///
/// The exit status is 128 plus the signal's number (130 for SIGINT, 143 for SIGTERM), what a
/// shell reports for a process a signal ended: a supervisor sees a stop that was not clean.
/// Nothing is waited for: responses in flight are cut (their clients see broken responses, as
/// after a crash), and the store is left as a crash leaves it, which its files are made to
/// survive; what is lost is the index's access times and counters since its last periodic
/// save.
enum SecondSignalStop {
    /// The exit status for a stop forced by `signal`.
    static func exitStatus(for signal: Int32) -> Int32 {
        128 + signal
    }

    /// Counts `arrivals` and, at the second, logs why, lets `flush` write out the log, and
    /// ends the process. Returns when the calling task is cancelled (the proxy stopped by
    /// itself).
    static func watch(_ arrivals: AsyncStream<Int32>, logger: Logger, flush: () -> Void) async {
        var received = 0
        for await signal in arrivals {
            received += 1
            guard received >= 2 else { continue }
            logger.warning("signal \(signal) again: stopping at once, responses in flight are cut (exit \(exitStatus(for: signal)))")
            flush()
            // `_exit`, not `exit`: the event loops' threads are still running, and the atexit
            // handlers and static destructors `exit` runs would race with them. Every output
            // of this process is unbuffered by then (the log was just flushed).
            _exit(exitStatus(for: signal))
        }
    }
}
