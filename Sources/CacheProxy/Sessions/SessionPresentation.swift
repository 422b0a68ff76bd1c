import CacheProxyParsing
import HLS

/// What a session plays, as settled when it was opened: its entry playlist, the variant it is
/// locked to, and the URL players use.
struct SessionPresentation: Sendable {
    enum Entry: Sendable {
        /// A presentation's own playlist, multivariant or media, loaded when the player asks.
        case playlist(OriginURL)
        /// A virtual playlist: the joined media playlist (absolute URIs), made once.
        case virtual(HLSPlaylist)
    }

    /// A locked variant: what the policy keeps, and what the session reports.
    struct LockedVariant: Sendable {
        var summary: HLSVariantSummary
        var resolution: String?
    }

    var entry: Entry
    var locked: LockedVariant?
    /// `http://HOST:PORT/sessions/ID`: every URL of the session starts with it.
    var base: String

    var playlistURL: String { base + "/index.m3u8" }
    /// Where the session's rewritten URIs point.
    var endpoint: String { base + "/proxy" }
}
