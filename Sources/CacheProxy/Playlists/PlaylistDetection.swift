import CacheProxyParsing
import SparseFile

/// Which responses are HLS playlists: by content type, or by a `.m3u8`/`.m3u` path when the
/// type is unknown (many origins serve playlists as `text/plain` or `application/octet-stream`).
enum PlaylistDetection {
    static let contentTypes: [[UInt8]] = [
        "application/vnd.apple.mpegurl", "application/x-mpegurl", "audio/mpegurl", "audio/x-mpegurl",
    ].map { Array($0.utf8) }

    /// Compares the media type (before any `;` parameter, without white space) ignoring ASCII
    /// case. Bytes, not `Character`s: it runs for every request.
    static func isPlaylistContentType(_ contentType: String) -> Bool {
        let bytes = contentType.utf8.prefix { $0 != UInt8(ascii: ";") }
        let start = bytes.firstIndex { $0 != 0x20 && $0 != 0x09 } ?? bytes.endIndex
        let end = bytes.lastIndex { $0 != 0x20 && $0 != 0x09 }.map { bytes.index(after: $0) } ?? start
        guard start < end else { return false }
        let mediaType = bytes[start..<end]
        return contentTypes.contains { type in
            type.count == mediaType.count && zip(type, mediaType).allSatisfy { $0 == ($1 | (($1 >= 0x41 && $1 <= 0x5A) ? 0x20 : 0)) }
        }
    }

    static func hasPlaylistExtension(_ url: OriginURL) -> Bool {
        let path = url.pathAndQuery.utf8.prefix { $0 != UInt8(ascii: "?") }
        func hasSuffix(_ suffix: String) -> Bool {
            let suffix = suffix.utf8
            guard path.count >= suffix.count else { return false }
            return zip(path.suffix(suffix.count), suffix).allSatisfy { $0 | 0x20 == $1 }
        }
        return hasSuffix(".m3u8") || hasSuffix(".m3u")
    }
}

extension ResourceMetadata {
    /// Whether the origin's content type names an HLS playlist.
    var isPlaylist: Bool { contentType.map(PlaylistDetection.isPlaylistContentType) ?? false }
}
