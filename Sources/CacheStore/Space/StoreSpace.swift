/// The free space of a store's volume, as ``CacheStore/space`` reports it.
public struct StoreSpace: Sendable, Hashable {
    /// Free bytes on the volume (for this process), measured now; nil when the volume cannot
    /// say (`statvfs` failed).
    public var freeBytes: UInt64?
    /// The free space the store keeps (``CacheStoreConfiguration/minimumFreeSpace``).
    public var minimumFreeBytes: UInt64
    /// Whether the last fill that needed room on the volume found none, even after evicting
    /// what it could: it failed with `CacheStoreError.Code.diskFull`. Clears when a later
    /// write succeeds.
    public var diskFull: Bool
}
