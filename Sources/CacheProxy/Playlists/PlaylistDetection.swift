import CacheProxyParsing

/// Which responses are HLS playlists: by content type, or by a `.m3u8`/`.m3u` path when the
/// type is unknown (many origins serve playlists as `text/plain` or `application/octet-stream`).
enum PlaylistDetection {
    static let contentTypes: Set<String> = [
        "application/vnd.apple.mpegurl", "application/x-mpegurl", "audio/mpegurl", "audio/x-mpegurl",
    ]

    static func isPlaylistContentType(_ contentType: String) -> Bool {
        let mediaType = String(contentType.prefix { $0 != ";" }).trimmingSpaces.lowercased()
        return contentTypes.contains(mediaType)
    }

    static func hasPlaylistExtension(_ url: OriginURL) -> Bool {
        url.pathExtension == "m3u8" || url.pathExtension == "m3u"
    }
}
