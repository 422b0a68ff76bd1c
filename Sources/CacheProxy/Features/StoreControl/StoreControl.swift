import CacheStore

/// The store's management while the proxy serves from it: pinning, removing, clearing and
/// evicting entries, for the control routes and for ``CacheProxy``'s Swift API alike. A store
/// has one writer, so while a proxy runs these go through it (`sparsecache pin`, `rm`, `clear`
/// and `evict` hand them over).
struct StoreControl: Sendable {
    let store: CacheStore
    /// The running proxy's hit path, whose connections and mappings must let go of the files
    /// removed (nil: not running).
    let hits: HitEnvironment?

    /// The key of the entry `url` names: `url` itself when the store has an entry by that key
    /// (a key as `GET /entries` lists it), else the key the store makes of it as a URL.
    func key(for url: String) -> String {
        store.entry(for: url) != nil ? url : store.key(for: url)
    }

    /// Pins or unpins the entry `url` names; returns it as it is now.
    ///
    /// - Throws: `CacheStore.CacheStoreError.Code.noEntry` when there is none.
    func setPinned(_ pinned: Bool, url: String) throws(CacheStoreError) -> EntryInfo {
        let key = key(for: url)
        try store.setPinned(pinned, for: key)
        guard let entry = store.entry(for: key) else { throw noEntry(key) }
        return entry
    }

    /// Removes the entry `url` names.
    ///
    /// - Throws: `CacheStore.CacheStoreError.Code.noEntry` when there is none.
    func remove(url: String) throws(CacheStoreError) -> StoreRemoval {
        let key = key(for: url)
        guard store.entry(for: key) != nil else { throw noEntry(key) }
        let freed = try store.remove(key: key)
        return released(removed: 1, freedBytes: freed)
    }

    /// Removes every entry.
    func clear() throws(CacheStoreError) -> StoreRemoval {
        let count = store.entries.count
        let freed = try store.clear()
        return released(removed: count, freedBytes: freed)
    }

    /// Evicts entries (expired first, then least recently used; never pinned ones or those
    /// being filled) until the store takes at most `size` bytes.
    func evict(toSize size: UInt64) throws(CacheStoreError) -> StoreRemoval {
        let report = try store.evict(toSize: size)
        return released(removed: report.removedKeys.count, freedBytes: report.freedBytes)
    }

    /// Makes the proxy's connections and mappings let go of removed files, so that their disk
    /// space is given back now rather than at each connection's next request.
    private func released(removed: Int, freedBytes: UInt64) -> StoreRemoval {
        if let hits, removed > 0 {
            hits.heldFiles.releaseRemoved(from: store)
            hits.mappedFiles.dropRemoved(from: store)
        }
        let pinned = store.entries.filter(\.pinned)
        return StoreRemoval(removed: removed, freedBytes: freedBytes, totalBytes: store.totalBytes,
                            pinnedEntries: pinned.count, pinnedBytes: pinned.reduce(0) { $0 + $1.diskBytes })
    }

    private func noEntry(_ key: String) -> CacheStoreError {
        CacheStoreError(.noEntry, "\(store.directory): no entry for key \(key)")
    }
}
