import CacheProxy

extension EvictionShortfall {
    /// What kept an eviction a running proxy made above its target, from its answer; nil when
    /// the store is at or below the target.
    init?(_ removal: StoreRemoval, target: UInt64) {
        guard removal.totalBytes > target else { return nil }
        totalBytes = removal.totalBytes
        self.target = target
        pinnedEntries = removal.pinnedEntries
        pinnedBytes = removal.pinnedBytes
    }
}
