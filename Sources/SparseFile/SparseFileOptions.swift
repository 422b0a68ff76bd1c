/// When a sparse file calls `fdatasync`, and so what survives a power loss.
///
/// Every policy is crash-safe against a process crash (`kill -9`): the page cache keeps what
/// was written, and a header only ever describes bytes written before it. The policies differ
/// in what a *power loss* can cost. See Docs/FORMAT.md, "Durability".
public enum Durability: String, Sendable, CaseIterable {
    /// Never synchronize. After a power loss a header may describe bytes that never reached the
    /// disk; their checksums then fail and they are treated as a miss, never served.
    case none
    /// Synchronize the data before writing each header (one `fdatasync` per commit). A header
    /// that reaches the disk only ever describes durable bytes; a power loss can lose the last
    /// commit, never an earlier one. The default.
    case ordered
    /// Synchronize the data, write the header, synchronize again (two per commit): a commit is
    /// durable when ``SparseFile/commit()`` returns.
    case full
}

/// How a ``SparseFile`` behaves: durability, automatic commits and decoding limits.
public struct SparseFileOptions: Sendable {
    /// When commits synchronize. Default ``Durability/ordered``.
    public var durability: Durability
    /// Commit automatically after this many bytes are appended, so that a crash loses at most
    /// this much of a download. `nil` commits only when asked. Default 2 MiB.
    public var autoCommitInterval: UInt64?
    /// The largest header body a reader will decompress (it holds the key, metadata and range
    /// table). Default 256 MiB, about ten million ranges.
    public var maximumBodyLength: UInt64
    /// The system call layer; tests replace it to inject faults.
    package var systemCalls: SystemCalls

    public init(
        durability: Durability = .ordered,
        autoCommitInterval: UInt64? = 2 << 20,
        maximumBodyLength: UInt64 = 256 << 20
    ) {
        self.durability = durability
        self.autoCommitInterval = autoCommitInterval
        self.maximumBodyLength = maximumBodyLength
        self.systemCalls = .live
    }

    package init(_ options: SparseFileOptions = SparseFileOptions(), systemCalls: SystemCalls) {
        self = options
        self.systemCalls = systemCalls
    }
}
