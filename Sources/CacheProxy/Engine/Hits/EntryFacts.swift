import CacheStore
import SparseFile

/// What the cache knows about an entry's representation: length, type, validators, and the
/// response headers they make. A class: the cache-hit path keeps one per connection and hands
/// it around for every request.
final class EntryFacts: Sendable {
    let length: UInt64?
    let contentType: String?
    let entityTag: String?
    let lastModified: String?
    /// The headers of every byte response of this representation, lengths and ranges aside.
    let representationHeaders: HeaderFields
    /// Whether the origin's content type names a manifest (an HLS playlist or a DASH MPD): one
    /// is served rewritten, never as bytes.
    let isPlaylist: Bool

    convenience init(_ file: SparseFile?) {
        self.init(file?.metadata)
    }

    init(_ metadata: ResourceMetadata?) {
        length = metadata?.contentLength
        contentType = metadata?.contentType
        entityTag = metadata?.entityTag
        lastModified = metadata?.lastModified
        var headers = HeaderFields()
        headers.reserveCapacity(6)
        headers.add(name: "Content-Type", value: contentType ?? "application/octet-stream")
        headers.add(name: "Accept-Ranges", value: "bytes")
        if let entityTag { headers.add(name: "ETag", value: entityTag) }
        if let lastModified { headers.add(name: "Last-Modified", value: lastModified) }
        representationHeaders = headers
        isPlaylist = metadata?.isManifest ?? false
    }

    /// ``representationHeaders`` as the header lines of a response head (`Name: value` and CRLF
    /// each): made once per entry by the hit path that writes heads as bytes, not per request.
    func representationHeaderLines() -> [UInt8] {
        representationHeaders.reduce(into: []) { bytes, field in
            bytes += field.name.utf8
            bytes += ": ".utf8
            bytes += field.value.utf8
            bytes += "\r\n".utf8
        }
    }

    /// Whether an `If-Range` value names this representation: a strong ETag equal to ours, or
    /// our exact Last-Modified date (RFC 9110 section 13.1.5).
    func matches(ifRange value: String) -> Bool {
        let value = value.trimmingSpaces
        if value.hasPrefix("\"") { return entityTag == value }
        if value.hasPrefix("W/") { return false }
        return lastModified == value
    }
}
