import Synchronization

/// What one session's requests and fetches cost: bytes served to its player, bytes fetched from
/// origins on its behalf (its player's misses and its own buffering), requests in flight, and
/// the time its requests took to answer. Counted without a lock but for the latencies.
final class SessionTraffic: Sendable {
    private let served = Atomic<UInt64>(0)
    private let fetched = Atomic<UInt64>(0)
    private let active = Atomic<Int>(0)
    /// The most recent response times, in microseconds.
    private let latencies = Mutex(LatencyWindow())
    /// Why the last request or fetch of the session failed (an origin's 403, an unreachable
    /// origin); nil until one does.
    private let failure = Mutex<String?>(nil)

    private struct LatencyWindow {
        static let size = 128
        var samples: [UInt64] = []
        var next = 0

        mutating func add(_ sample: UInt64) {
            if samples.count < Self.size {
                samples.append(sample)
            } else {
                samples[next] = sample
                next = (next + 1) % Self.size
            }
        }
    }

    func recordServed(_ count: UInt64) { served.add(count, ordering: .relaxed) }
    func recordFetched(_ count: UInt64) { fetched.add(count, ordering: .relaxed) }
    func requestStarted() { active.add(1, ordering: .relaxed) }

    /// A request ended after `elapsed` (until its response head went out).
    func requestEnded(after elapsed: Duration) {
        active.subtract(1, ordering: .relaxed)
        let (seconds, attoseconds) = elapsed.components
        let microseconds = UInt64(max(0, seconds)) * 1_000_000 + UInt64(max(0, attoseconds)) / 1_000_000_000_000
        latencies.withLock { $0.add(microseconds) }
    }

    /// A request of the session's player, or a fetch made for it, failed with `message` (which
    /// names URLs and statuses, never a header's value).
    func recordFailure(_ message: String) {
        failure.withLock { $0 = message }
    }

    var lastFailure: String? { failure.withLock { $0 } }

    var bytesServed: UInt64 { served.load(ordering: .relaxed) }
    var bytesFetched: UInt64 { fetched.load(ordering: .relaxed) }
    var activeRequests: Int { active.load(ordering: .relaxed) }

    /// The median of the recent response times in milliseconds; nil before the first.
    var medianLatencyMilliseconds: Double? {
        let sorted = latencies.withLock { $0.samples }.sorted()
        guard !sorted.isEmpty else { return nil }
        let middle = sorted.count / 2
        let median = sorted.count % 2 == 1 ? Double(sorted[middle]) : Double(sorted[middle - 1] + sorted[middle]) / 2
        return median / 1000
    }
}
