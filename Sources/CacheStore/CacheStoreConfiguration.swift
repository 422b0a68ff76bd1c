public import SparseFile

/// How a ``CacheStore`` behaves.
public struct CacheStoreConfiguration: Sendable {
    /// The most disk space (allocated bytes) the entries may take. `nil` uses the size kept in
    /// the store directory (set by `sparsecache create --max-size`), or 1 GiB for a new store.
    public var maximumSize: UInt64?
    /// Eviction starts when a write would take the store past this fraction of the maximum…
    public var highWatermark: Double
    /// …and evicts least-recently-used entries until it is at or below this fraction.
    public var lowWatermark: Double
    /// How long a new entry stays fresh; `nil` never expires. Per-entry TTLs override it.
    public var defaultTimeToLive: Duration?
    /// Turns a URL into a cache key; the default is ``CacheKey/normalizedURL(_:)``.
    public var keyFunction: @Sendable (String) -> String
    /// How entry files are written (durability, commit interval).
    public var fileOptions: SparseFileOptions
    /// How often last-access times and counters are written to disk in the background: a crash
    /// loses at most this much of the recency order. A clean close writes them exactly.
    public var accessFlushInterval: Duration
    /// The free space the store keeps on its volume, whatever ``maximumSize`` says: when a fill
    /// would leave less, the store evicts (expired entries first, then least recently used;
    /// never pinned entries or entries being filled) and fails the write with
    /// `CacheStoreError.Code.diskFull` when that is not enough. `nil` keeps the smaller of
    /// 1 GiB and 5 % of the volume; 0 keeps nothing (a write can still fill the disk, and then
    /// evicts and retries once).
    public var minimumFreeSpace: UInt64?
    /// Test hook: the file name for a key (to force hash collisions).
    package var fileNameFunction: (@Sendable (String) -> String)?

    public init(
        maximumSize: UInt64? = nil,
        highWatermark: Double = 1.0,
        lowWatermark: Double = 0.8,
        defaultTimeToLive: Duration? = nil,
        keyFunction: @escaping @Sendable (String) -> String = CacheKey.normalizedURL,
        fileOptions: SparseFileOptions = SparseFileOptions(),
        accessFlushInterval: Duration = .seconds(60),
        minimumFreeSpace: UInt64? = nil
    ) {
        self.maximumSize = maximumSize
        self.highWatermark = highWatermark
        self.lowWatermark = lowWatermark
        self.defaultTimeToLive = defaultTimeToLive
        self.keyFunction = keyFunction
        self.fileOptions = fileOptions
        self.accessFlushInterval = accessFlushInterval
        self.minimumFreeSpace = minimumFreeSpace
        self.fileNameFunction = nil
    }

    static let defaultMaximumSize: UInt64 = 1 << 30

    /// The free space to keep on a volume of `volumeSize` bytes when none is configured.
    static func defaultMinimumFreeSpace(volumeSize: UInt64) -> UInt64 { min(1 << 30, volumeSize / 20) }
}
