import CacheProxyParsing
#if DASH
import DASH
#endif
import HLS

/// What a session plays, as settled when it was opened: its entry playlist, the variant it is
/// locked to, and the URL players use.
struct SessionPresentation: Sendable {
    enum Entry: Sendable {
        /// A presentation's own playlist, multivariant or media, loaded when the player asks.
        case playlist(OriginURL)
        /// A virtual playlist: the joined media playlist (absolute URIs), made once.
        case virtual(HLSPlaylist)
        #if DASH
        /// A DASH presentation's MPD, served at the session's own path form (``dashEndpoint``).
        case dash(OriginURL)
        #endif
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
    #if DASH
    /// A DASH session's quality lock.
    var dashLock: DASHSessionLock?
    #endif

    /// Where the player starts: `/sessions/ID/index.m3u8`, or for DASH the MPD's path form under
    /// the session, `/sessions/ID/dash/<prefix>/<name>.mpd`, where its relative references
    /// resolve through the session as written.
    var playlistURL: String {
        #if DASH
        if case .dash(let origin) = entry, let url = dashEndpoint?.url(for: origin.string) { return url }
        #endif
        return base + "/index.m3u8"
    }

    #if DASH
    /// Where a DASH session's rewritten URLs point: the path form under the session's base.
    var dashEndpoint: DASHProxyEndpoint? { DASHProxyEndpoint(under: base) }
    #endif
    /// The quality the session is locked to, as its status reports it.
    var lockedQuality: PlaybackSessionStatus.Quality? {
        if let locked { return .init(bandwidth: locked.summary.bandwidth, resolution: locked.resolution) }
        #if DASH
        return dashLock?.quality
        #else
        return nil
        #endif
    }

    /// Where the session's rewritten URIs point.
    var endpoint: String { base + "/proxy" }
}
