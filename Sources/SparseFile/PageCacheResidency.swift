/// Whether cached bytes are in memory (the kernel's page cache) or must first be read from the
/// disk: reading or sending bytes on disk waits for the disk, which a server's event loop must
/// not do (``SparseFile/pageCacheResidency(of:)``).
public enum PageCacheResidency: Sendable, Equatable {
    /// Every page holding the bytes is in the page cache.
    case inMemory
    /// Some page holding the bytes is not: it comes from the disk, and may differ from what was
    /// verified before it left memory.
    case onDisk
    /// The system cannot tell (`cachestat` came with Linux 6.5), or the file is closed.
    case unknown
}
