import CacheStore

/// What kept an `evict --to` above its target: the pinned entries, which eviction never removes.
struct EvictionShortfall {
    var totalBytes: UInt64
    var target: UInt64
    var pinnedEntries: Int
    var pinnedBytes: UInt64

    /// Nil when the store is at or below the target.
    init?(store: CacheStore, target: UInt64) {
        guard store.totalBytes > target else { return nil }
        let pinned = store.entries.filter(\.pinned)
        self.totalBytes = store.totalBytes
        self.target = target
        self.pinnedEntries = pinned.count
        self.pinnedBytes = pinned.reduce(0) { $0 + $1.diskBytes }
    }

    /// Exit 1: the store is still above the target, and why.
    var failure: CommandFailure {
        let size = ByteCountText.text
        let reason = pinnedEntries > 0
            ? "\(pinnedEntries) pinned \(pinnedEntries == 1 ? "entry keeps" : "entries keep") \(size(pinnedBytes)), which eviction never removes; "
                + "unpin what you no longer need (sparsecache unpin KEY) and evict again"
            : "entries being written cannot be evicted; evict again when they are done"
        return CommandFailure(code: .failure, message: "the store is still \(size(totalBytes)), above \(size(target)): " + reason)
    }
}
