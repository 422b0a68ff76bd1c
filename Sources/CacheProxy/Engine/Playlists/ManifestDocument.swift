import HLS

/// A manifest the proxy fetches whole, keeps raw and serves rewritten: an HLS playlist or a
/// DASH MPD. ``PlaylistLoader`` loads either kind by the same rules, and asks the document only
/// what a cached copy of it is good for.
protocol ManifestDocument: Sendable {
    /// The document in `body`, fetched from `url`; nil when the bytes are not one.
    static func parse(_ body: [UInt8], url: String) -> Self?

    /// What a cached copy of this document may do before the origin is asked.
    var cachedCopyUse: CachedCopyUse { get }
}

/// How a cached manifest is used.
enum CachedCopyUse: Sendable {
    /// It never changes (a VOD media playlist, a static MPD): served without asking the origin.
    case servedAsIs
    /// It changes rarely (a multivariant playlist): served at once, and refreshed in the
    /// background once stale (``PlaylistRevalidation``).
    case servedThenRevalidated
    /// It changes all the time (a live playlist, a dynamic MPD): fetched fresh while the origin
    /// answers, and served stale only when it does not.
    case fetchedFresh
}

/// A manifest's bytes and what is known of them.
struct LoadedManifest<Document: ManifestDocument> {
    var body: [UInt8]
    /// The parsed document; nil when the bytes do not parse as one.
    var document: Document?
    /// The URL the bytes came from, after redirects: relative URIs resolve against it.
    var url: String
    var contentType: String?
    var source: PlaylistLoader.Source
}

extension LoadedManifest where Document == HLSPlaylist {
    /// The parsed playlist; nil when the bytes do not parse as one.
    var playlist: HLSPlaylist? { document }
}

extension HLSPlaylist: ManifestDocument {
    static func parse(_ body: [UInt8], url: String) -> HLSPlaylist? {
        PlaylistCache.parse(body, url: url)
    }

    var cachedCopyUse: CachedCopyUse {
        switch kind {
        case .master: .servedThenRevalidated
        case .media: isLive ? .fetchedFresh : .servedAsIs
        }
    }
}
