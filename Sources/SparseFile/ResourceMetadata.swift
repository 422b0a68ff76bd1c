/// What a sparse file records about the resource whose bytes it caches.
public struct ResourceMetadata: Hashable, Sendable {
    /// The cache key (usually the normalized URL). Checked on open so that a file can never
    /// serve the bytes of another key.
    public var key: String
    /// The total length of the resource, when the origin told it.
    public var contentLength: UInt64?
    /// The origin's `ETag`, kept verbatim (including any `W/` prefix and quotes).
    public var entityTag: String?
    /// The origin's `Last-Modified`, kept verbatim.
    public var lastModified: String?
    /// The origin's `Content-Type`.
    public var contentType: String?
    /// Application-defined attributes (a store keeps expiry and pinning here). Names and values
    /// are UTF-8 strings of at most 64 KiB each.
    public var attributes: [String: String]

    public init(
        key: String,
        contentLength: UInt64? = nil,
        entityTag: String? = nil,
        lastModified: String? = nil,
        contentType: String? = nil,
        attributes: [String: String] = [:]
    ) {
        self.key = key
        self.contentLength = contentLength
        self.entityTag = entityTag
        self.lastModified = lastModified
        self.contentType = contentType
        self.attributes = attributes
    }
}
