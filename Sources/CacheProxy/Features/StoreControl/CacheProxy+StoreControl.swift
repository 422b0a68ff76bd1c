public import CacheStore

/// Managing the store while the proxy serves from it: what `POST /entries/pin`,
/// `POST /entries/unpin`, `DELETE /entries?url=`, `DELETE /entries` and `POST /evict` do.
///
/// An entry is named by its URL, or by its cache key as ``CacheStore/CacheStore/entries`` and
/// `GET /entries` list it. These work whether or not the proxy is running; while it runs, the
/// files removed are also let go of by its connections, so their disk space comes back at once.
extension CacheProxy {
    /// Pins the entry `url` names: eviction never removes it. Returns the entry.
    ///
    /// - Throws: `CacheStore.CacheStoreError.Code.noEntry` when the store has no such entry;
    ///   the store's errors when its disk fails.
    @discardableResult
    public func pin(_ url: String) throws(CacheStoreError) -> EntryInfo {
        try storeControl.setPinned(true, url: url)
    }

    /// Unpins the entry `url` names. Returns the entry.
    ///
    /// - Throws: `CacheStore.CacheStoreError.Code.noEntry` when the store has no such entry.
    @discardableResult
    public func unpin(_ url: String) throws(CacheStoreError) -> EntryInfo {
        try storeControl.setPinned(false, url: url)
    }

    /// Removes the entry `url` names (a player reading it finishes from the open file).
    ///
    /// - Throws: `CacheStore.CacheStoreError.Code.noEntry` when the store has no such entry.
    @discardableResult
    public func removeEntry(_ url: String) throws(CacheStoreError) -> StoreRemoval {
        try storeControl.remove(url: url)
    }

    /// Removes every entry, pinned ones included.
    @discardableResult
    public func clear() throws(CacheStoreError) -> StoreRemoval {
        try storeControl.clear()
    }

    /// Evicts entries, expired ones first, then the least recently used, until the store takes
    /// at most `size` bytes. Pinned entries and entries being filled stay, so the store may stay
    /// above `size` (``StoreRemoval/totalBytes`` says).
    @discardableResult
    public func evict(toSize size: UInt64) throws(CacheStoreError) -> StoreRemoval {
        try storeControl.evict(toSize: size)
    }
}
