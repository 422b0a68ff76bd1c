/// What removing entries from a running proxy's store did: `DELETE /entries?url=`,
/// `DELETE /entries`, `POST /evict` and their Swift counterparts answer it.
public struct StoreRemoval: Sendable, Hashable, Codable {
    /// The entries removed.
    public var removed: Int
    /// The disk space they took, in bytes.
    public var freedBytes: UInt64
    /// The disk space the store's entries take afterwards, in bytes (above an eviction's target
    /// when pinned entries, or entries being filled, hold more).
    public var totalBytes: UInt64
    /// The pinned entries left, which eviction never removes.
    public var pinnedEntries: Int
    /// The disk space they take, in bytes.
    public var pinnedBytes: UInt64

    public init(removed: Int, freedBytes: UInt64, totalBytes: UInt64, pinnedEntries: Int = 0, pinnedBytes: UInt64 = 0) {
        self.removed = removed
        self.freedBytes = freedBytes
        self.totalBytes = totalBytes
        self.pinnedEntries = pinnedEntries
        self.pinnedBytes = pinnedBytes
    }
}
