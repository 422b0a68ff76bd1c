import Logging
import Synchronization

/// Says in the log, at most once a minute, that responses are passing through uncached
/// because the store has no room: a full disk must be visible to an operator, without a line
/// per request.
final class StoreRoomWarning: Sendable {
    private let lastWarning = Mutex<ContinuousClock.Instant?>(nil)
    static let interval: Duration = .seconds(60)

    func note(_ logger: Logger, freeBytes: UInt64?) {
        let now = ContinuousClock.now
        let due = lastWarning.withLock { last -> Bool in
            if let last, now - last < Self.interval { return false }
            last = now
            return true
        }
        guard due else { return }
        logger.warning("the cache has no room (disk full?): responses pass through from the origin uncached until space is free",
                       metadata: freeBytes.map { ["freeBytes": "\($0)"] } ?? [:])
    }
}
