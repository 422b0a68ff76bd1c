/// What the store knows about one entry without touching its file.
struct EntryRecord: Equatable, Sendable {
    var key: String
    /// The entry's file, relative to the store's `entries` folder.
    var fileName: String
    var diskBytes: UInt64
    var cachedBytes: UInt64
    var contentLength: UInt64?
    /// Milliseconds since 1970 of the last read or write.
    var lastAccess: UInt64
    /// Exact recency order: larger was used later.
    var accessSequence: UInt64
    var pinned: Bool
    /// Milliseconds since 1970 after which the entry is stale, when it expires.
    var expires: UInt64?
    /// Only the first this-many bytes are kept (head-only caching).
    var headLimit: UInt64?
    /// The file's size and modification time when the index last saw it; a file that changed
    /// since is re-read from its header on open.
    var fileSize: UInt64
    var modified: UInt64

    func isExpired(at now: UInt64) -> Bool { expires.map { $0 <= now } ?? false }
}

/// The header attributes in which entry files keep what the store needs after a crash.
enum EntryAttribute {
    static let pinned = "store.pinned"
    static let expires = "store.expires"
    static let headLimit = "store.head-limit"
    static let vary = "http.vary"
}
