import CacheStore
import Logging
import Synchronization

/// Says in the log, at most once a minute, that responses are passing through uncached
/// because the store has no room: a full disk, or a size limit taken by entries that cannot be
/// evicted (being filled, or pinned), must be visible to an operator, without a line per
/// request. Which of the two it is decides what the operator does, so the line says it.
final class StoreRoomWarning: Sendable {
    private let lastWarning = Mutex<ContinuousClock.Instant?>(nil)
    static let interval: Duration = .seconds(60)

    func note(_ logger: Logger, space: StoreSpace, maximumSize: UInt64) {
        let now = ContinuousClock.now
        let due = lastWarning.withLock { last -> Bool in
            if let last, now - last < Self.interval { return false }
            last = now
            return true
        }
        guard due else { return }
        var metadata: Logger.Metadata = ["maximumSize": "\(maximumSize)", "minimumFreeBytes": "\(space.minimumFreeBytes)"]
        if let free = space.freeBytes { metadata["freeBytes"] = "\(free)" }
        if space.diskFull {
            logger.warning("the cache has no room, the disk is full: responses pass through from the origin uncached until space is free",
                           metadata: metadata)
        } else {
            logger.warning("""
                the cache has no room, its size limit is taken by entries being filled or pinned: responses pass \
                through from the origin uncached until fills end or entries are unpinned (or the limit is raised)
                """, metadata: metadata)
        }
    }
}
