/// What an origin response says about a resource, given when a fill starts.
public struct EntryMetadata: Sendable, Hashable {
    /// The full length of the resource, when known (from `Content-Length` of a 200 or the
    /// total in `Content-Range`).
    public var contentLength: UInt64?
    public var entityTag: String?
    public var lastModified: String?
    public var contentType: String?
    /// Overrides the store's default time to live for this entry.
    public var timeToLive: Duration?

    public init(
        contentLength: UInt64? = nil, entityTag: String? = nil, lastModified: String? = nil,
        contentType: String? = nil, timeToLive: Duration? = nil
    ) {
        self.contentLength = contentLength
        self.entityTag = entityTag
        self.lastModified = lastModified
        self.contentType = contentType
        self.timeToLive = timeToLive
    }

    /// Whether bytes described by `other` may be mixed with bytes described by `self`: every
    /// validator both know must agree.
    func isCompatible(with other: EntryMetadata) -> Bool {
        func agree<T: Equatable>(_ lhs: T?, _ rhs: T?) -> Bool {
            guard let lhs, let rhs else { return true }
            return lhs == rhs
        }
        return agree(contentLength, other.contentLength) && agree(entityTag, other.entityTag)
            && agree(lastModified, other.lastModified)
    }
}

/// A snapshot of one entry, as `sparsecache ls` shows it.
public struct EntryInfo: Sendable, Hashable {
    public var key: String
    public var cachedBytes: UInt64
    public var contentLength: UInt64?
    /// Disk space the entry's file takes (allocated blocks).
    public var diskBytes: UInt64
    /// Milliseconds since 1970 of the last read or write.
    public var lastAccess: UInt64
    public var pinned: Bool
    /// Milliseconds since 1970 when the entry goes stale, if it does.
    public var expires: UInt64?
    /// The head-only limit, if any.
    public var headLimit: UInt64?
    /// The entry's file, relative to the store's `entries` folder.
    public var fileName: String

    public var isComplete: Bool { contentLength.map { $0 == cachedBytes } ?? false }

    init(_ record: EntryRecord) {
        key = record.key
        cachedBytes = record.cachedBytes
        contentLength = record.contentLength
        diskBytes = record.diskBytes
        lastAccess = record.lastAccess
        pinned = record.pinned
        expires = record.expires
        headLimit = record.headLimit
        fileName = record.fileName
    }
}
