/// Whether a playlist lists variants (multivariant, "master") or segments (media).
public enum HLSPlaylistKind: String, Hashable, Sendable {
    /// A multivariant playlist: variants, renditions, session data and keys.
    case master
    /// A media playlist: segments, and for low-latency HLS, parts and hints.
    case media
}
