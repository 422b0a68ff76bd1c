#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization

/// Waits for a termination signal. Dispatch signal sources are the one way to receive
/// signals without a thread blocked in `sigwait` (swift-service-lifecycle does the same);
/// they stay confined to this type.
enum SignalWaiter {
    /// Returns the first of `signals` to arrive, or nil when the calling task is cancelled.
    static func wait(for signals: [Int32]) async -> Int32? {
        for await number in arrivals(of: signals) { return number }
        return nil
    }

    /// Every arrival of one of `signals`, until the iterating task is cancelled. Other
    /// listeners of the same signals (a `ServiceGroup`'s) still receive them: each Dispatch
    /// source gets every signal.
    static func arrivals(of signals: [Int32]) -> AsyncStream<Int32> {
        AsyncStream<Int32> { continuation in
            let sources = Mutex(signals.map { number -> any DispatchSourceSignal in
                // The default action (terminate) must not run before the handler can.
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { continuation.yield(number) }
                source.resume()
                return source
            })
            continuation.onTermination = { _ in
                sources.withLock { sources in
                    for source in sources { source.cancel() }
                }
            }
        }
    }
}
