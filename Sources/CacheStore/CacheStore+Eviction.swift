import SparseFile

extension CacheStore {
    /// What an eviction removed.
    public struct EvictionReport: Sendable, Hashable {
        public var removedKeys: [String]
        public var freedBytes: UInt64
    }

    var highWatermarkBytes: UInt64 { UInt64(Double(maximumSize) * configuration.highWatermark) }
    var lowWatermarkBytes: UInt64 { UInt64(Double(maximumSize) * configuration.lowWatermark) }

    /// Makes room for `incoming` more bytes: when they would take the store past the high
    /// watermark, removes entries until it is at or below the low watermark — expired entries
    /// first, then the least recently used — never pinned entries, entries being filled, or
    /// `protecting`. Lock held.
    ///
    /// - Throws: `CacheStoreError.Code.storeFull` when even then `incoming` would not fit
    ///   under the maximum.
    func makeRoom(for incoming: UInt64, protecting: String?, in state: inout StoreState) throws(CacheStoreError) {
        guard state.totalBytes + incoming > highWatermarkBytes else { return }
        let target = lowWatermarkBytes
        _ = evict(in: &state, until: { $0.totalBytes + incoming <= target }, protecting: protecting)
        guard state.totalBytes + incoming <= maximumSize else {
            throw CacheStoreError(.storeFull, "\(directory): no room for \(incoming) more bytes (\(state.totalBytes) of \(maximumSize) used by pinned or busy entries)")
        }
    }

    /// Removes evictable entries in eviction order until `isDone`. Lock held.
    @discardableResult
    func evict(in state: inout StoreState, until isDone: (StoreState) -> Bool, protecting: String?) -> EvictionReport {
        var report = EvictionReport(removedKeys: [], freedBytes: 0)
        guard !isDone(state) else { return report }
        let now = WallClock.milliseconds()
        let candidates = evictable(in: state, protecting: protecting)
            .sorted { lhs, rhs in
                let (lhsExpired, rhsExpired) = (lhs.isExpired(at: now), rhs.isExpired(at: now))
                if lhsExpired != rhsExpired { return lhsExpired }
                return lhs.accessSequence < rhs.accessSequence
            }
        for record in candidates {
            if isDone(state) { break }
            report.freedBytes += removeEntry(record.key, in: &state, reason: "evicted")
            report.removedKeys.append(record.key)
            state.statistics.evictions += 1
        }
        return report
    }

    /// The entries eviction may remove: neither pinned, nor being filled, nor `protecting`.
    func evictable(in state: StoreState, protecting: String?) -> [EntryRecord] {
        state.records.values.filter { !$0.pinned && $0.key != protecting && !state.hasActiveFills($0.key) }
    }

    /// Evicts entries (expired first, then least recently used; never pinned or busy ones)
    /// until the store takes at most `size` bytes.
    @discardableResult
    public func evict(toSize size: UInt64) throws(CacheStoreError) -> EvictionReport {
        try checkWritable()
        let report = locked { state in evict(in: &state, until: { $0.totalBytes <= size }, protecting: nil) }
        saveIndexWhenPossible()
        return report
    }
}
