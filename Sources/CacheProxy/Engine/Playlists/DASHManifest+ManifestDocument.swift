#if DASH
import DASH

/// MPDs load like playlists (``PlaylistLoader``): a static MPD never changes, so a cached copy
/// is served as a VOD playlist is; a dynamic one is refetched on every request while the origin
/// answers, as a live playlist is, and its cached copy stands in only when the origin is down.
extension DASHManifest: ManifestDocument {
    /// Parsed leniently: rule violations are warnings, as players treat them.
    static func parse(_ body: [UInt8], url: String) -> DASHManifest? {
        try? DASHManifest(parsing: body)
    }

    var cachedCopyUse: CachedCopyUse {
        type == .dynamic ? .fetchedFresh : .servedAsIs
    }
}
#endif
