import Synchronization

/// How long each cached multivariant playlist stays fresh, and which are being revalidated.
///
/// A multivariant playlist is served from the cache at once, fresh or not
/// (stale-while-revalidate, RFC 5861): a cached video must not wait for the origin to start.
/// A stale one is refreshed by one background fetch, whose answer is what the next request gets.
/// In memory only: after a restart every cached copy counts as stale (served, then revalidated).
final class PlaylistFreshness: Sendable {
    private struct Record {
        /// When the copy was fetched or last confirmed, and for how long it is fresh from then.
        var confirmed: ContinuousClock.Instant?
        var lifetime: Duration = .zero
        var isRevalidating = false
        /// Whether the current run of failed revalidations has been logged.
        var failureLogged = false
        /// Whether serving the copy with only what plays offline has been logged since the
        /// origin last answered (``OfflineVariants``).
        var offlineListingLogged = false
    }

    /// The freshness of a playlist whose origin says nothing usable about it.
    let defaultLifetime: Duration
    /// The longest `max-age` honoured; larger ones fall back to the default (a playlist that
    /// claims to stay the same for weeks is more likely misconfigured than true).
    static let maximumLifetime: Duration = .seconds(7 * 24 * 3600)
    /// Playlists remembered; past it the records start over (every copy then counts as stale).
    private static let capacity = 4096
    private let records = Mutex<[String: Record]>([:])
    private let clock = ContinuousClock()

    init(defaultLifetime: Duration) {
        self.defaultLifetime = defaultLifetime
    }

    /// How long a response with these headers stays fresh from now: its `max-age` less its
    /// `Age`, when both are sane; the default otherwise.
    func lifetime(of head: OriginResponseHead) -> Duration {
        guard let maxAge = head.cacheControl.maxAge, maxAge <= UInt64(Self.maximumLifetime.components.seconds) else {
            return defaultLifetime
        }
        let age = min(head.age ?? 0, maxAge)
        return .seconds(maxAge - age)
    }

    /// The copy of `key` was just fetched, or confirmed by a `304`.
    func confirmed(_ key: String, lifetime: Duration) {
        records.withLock { records in
            if records.count >= Self.capacity, records[key] == nil { records.removeAll() }
            var record = records[key] ?? Record()
            record.confirmed = clock.now
            record.lifetime = lifetime
            record.failureLogged = false
            record.offlineListingLogged = false
            records[key] = record
        }
    }

    func isFresh(_ key: String) -> Bool {
        records.withLock { records in
            guard let record = records[key], let confirmed = record.confirmed else { return false }
            return clock.now - confirmed < record.lifetime
        }
    }

    /// Whether the caller should revalidate `key` now: it is stale and nobody revalidates it
    /// yet. A true answer marks it as being revalidated until ``endRevalidation(_:)``.
    func beginRevalidation(_ key: String) -> Bool {
        records.withLock { records in
            var record = records[key] ?? Record()
            if let confirmed = record.confirmed, clock.now - confirmed < record.lifetime { return false }
            guard !record.isRevalidating else { return false }
            if records.count >= Self.capacity, records[key] == nil { records.removeAll() }
            record.isRevalidating = true
            records[key] = record
            return true
        }
    }

    /// Whether a revalidation of `key` is in flight.
    func isRevalidating(_ key: String) -> Bool {
        records.withLock { $0[key]?.isRevalidating ?? false }
    }

    /// Whether to log that the copy of `key` is served with only what plays offline: once,
    /// until the origin answers for it again.
    func shouldLogOfflineListing(_ key: String) -> Bool {
        records.withLock { records in
            if records.count >= Self.capacity, records[key] == nil { records.removeAll() }
            guard records[key]?.offlineListingLogged != true else { return false }
            records[key, default: Record()].offlineListingLogged = true
            return true
        }
    }

    func endRevalidation(_ key: String) {
        records.withLock { $0[key]?.isRevalidating = false }
    }

    /// A revalidation failed; returns whether to log it (once until the next success).
    func failed(_ key: String) -> Bool {
        records.withLock { records in
            guard records[key]?.failureLogged == false else { return false }
            records[key]?.failureLogged = true
            return true
        }
    }

    /// The origin no longer has the playlist: the copy is gone too.
    func forget(_ key: String) {
        records.withLock { _ = $0.removeValue(forKey: key) }
    }
}
