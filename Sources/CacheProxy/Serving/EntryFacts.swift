import CacheStore
import SparseFile

/// What the cache knows about an entry's representation: length, type, validators.
struct EntryFacts {
    var length: UInt64?
    var contentType: String?
    var entityTag: String?
    var lastModified: String?

    init(_ file: SparseFile?) {
        let metadata = file?.metadata
        length = metadata?.contentLength
        contentType = metadata?.contentType
        entityTag = metadata?.entityTag
        lastModified = metadata?.lastModified
    }

    /// Whether an `If-Range` value names this representation: a strong ETag equal to ours, or
    /// our exact Last-Modified date (RFC 9110 section 13.1.5).
    func matches(ifRange value: String) -> Bool {
        let value = value.trimmingSpaces
        if value.hasPrefix("\"") { return entityTag == value }
        if value.hasPrefix("W/") { return false }
        return lastModified == value
    }

    var isPlaylist: Bool { contentType.map(PlaylistDetection.isPlaylistContentType) ?? false }
}
