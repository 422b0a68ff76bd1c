/// EXT-X-PLAYLIST-TYPE.
public enum HLSPlaylistType: String, Hashable, Sendable {
    /// Segments may be appended but never removed.
    case event = "EVENT"
    /// The playlist never changes.
    case vod = "VOD"
}
