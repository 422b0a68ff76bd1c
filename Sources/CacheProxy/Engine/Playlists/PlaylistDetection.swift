import CacheProxyParsing
import SparseFile

/// Which responses are manifests the proxy serves rewritten: HLS playlists and DASH MPDs, by
/// content type, or by their path (`.m3u8`/`.m3u`, `.mpd`) when the type is unknown (many
/// origins serve them as `text/plain`, `text/xml` or `application/octet-stream`).
enum PlaylistDetection {
    static let contentTypes: [[UInt8]] = [
        "application/vnd.apple.mpegurl", "application/x-mpegurl", "audio/mpegurl", "audio/x-mpegurl",
    ].map { Array($0.utf8) }

    /// The types of MPDs: ISO/IEC 23009-1's, and the one some packagers write.
    static let dashContentTypes: [[UInt8]] = ["application/dash+xml", "video/vnd.mpeg.dash.mpd"].map { Array($0.utf8) }

    /// Compares the media type (before any `;` parameter, without white space) ignoring ASCII
    /// case. Bytes, not `Character`s: it runs for every request.
    static func isPlaylistContentType(_ contentType: String) -> Bool {
        mediaType(of: contentType, isOneOf: contentTypes)
    }

    /// Whether the content type names a DASH MPD, compared as ``isPlaylistContentType(_:)`` does.
    static func isDASHContentType(_ contentType: String) -> Bool {
        mediaType(of: contentType, isOneOf: dashContentTypes)
    }

    static func hasPlaylistExtension(_ url: OriginURL) -> Bool {
        pathHasSuffix(url, ".m3u8") || pathHasSuffix(url, ".m3u")
    }

    static func hasDASHExtension(_ url: OriginURL) -> Bool {
        pathHasSuffix(url, ".mpd")
    }

    /// Whether the URL names a manifest the proxy rewrites, which the hit path never serves as
    /// bytes. Without the DASH trait, an MPD is bytes like any other resource.
    static func hasManifestExtension(_ url: OriginURL) -> Bool {
        #if DASH
        hasPlaylistExtension(url) || hasDASHExtension(url)
        #else
        hasPlaylistExtension(url)
        #endif
    }

    /// The manifests this build serves rewritten, as refusals name them.
    #if DASH
    static let manifestKinds = "an HLS playlist or a DASH MPD"
    #else
    static let manifestKinds = "an HLS playlist"
    #endif

    private static func mediaType(of contentType: String, isOneOf types: [[UInt8]]) -> Bool {
        let bytes = contentType.utf8.prefix { $0 != UInt8(ascii: ";") }
        let start = bytes.firstIndex { $0 != 0x20 && $0 != 0x09 } ?? bytes.endIndex
        let end = bytes.lastIndex { $0 != 0x20 && $0 != 0x09 }.map { bytes.index(after: $0) } ?? start
        guard start < end else { return false }
        let mediaType = bytes[start..<end]
        return types.contains { type in
            type.count == mediaType.count && zip(type, mediaType).allSatisfy { $0 == ($1 | (($1 >= 0x41 && $1 <= 0x5A) ? 0x20 : 0)) }
        }
    }

    /// Whether the URL's path (its query aside) ends in `suffix`, ignoring ASCII case.
    private static func pathHasSuffix(_ url: OriginURL, _ suffix: String) -> Bool {
        let path = url.pathAndQuery.utf8.prefix { $0 != UInt8(ascii: "?") }
        let suffix = suffix.utf8
        guard path.count >= suffix.count else { return false }
        return zip(path.suffix(suffix.count), suffix).allSatisfy { $0 | 0x20 == $1 }
    }
}

extension ResourceMetadata {
    /// Whether the origin's content type names an HLS playlist.
    var isPlaylist: Bool { contentType.map(PlaylistDetection.isPlaylistContentType) ?? false }

    /// Whether the origin's content type names a DASH MPD.
    var isDASHManifest: Bool { contentType.map(PlaylistDetection.isDASHContentType) ?? false }

    /// Whether the origin's content type names a manifest the proxy rewrites.
    var isManifest: Bool {
        #if DASH
        isPlaylist || isDASHManifest
        #else
        isPlaylist
        #endif
    }
}
