/// How much a player is waiting for a fetch's bytes. The link to the origin goes to the most
/// urgent fetches: on a phone's link every connection shares one narrow pipe, so a prefetch that
/// runs beside a starting video takes its bandwidth away from the video the user is looking at.
///
/// Fetches less urgent than the most urgent one in flight pause (they stop reading, and TCP's
/// backpressure stops the origin sending); orphaned fetches are cut instead. See
/// ``LinkScheduler``.
enum FetchUrgency: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
    /// A player whose video has not started: its playlists, init sections, keys and first
    /// segments, and a session's start buffer.
    case start = 0
    /// The start buffers of the next videos of a feed (prefetch, in the app's order), a
    /// session's next segments, and a player's next segments that the proxy cannot place on
    /// its presentation's timeline.
    case ahead = 1
    /// A playing player's next segment while its buffer lasts: the next video's start is the
    /// sooner wait on a feed, where the user swipes within seconds. It becomes a ``start`` when
    /// the player's buffer is about to run out (``PlaybackTimeline``).
    case buffering = 2
    /// Deeper buffering: a session's segments far from the player's position, a prefetch
    /// beyond a video's start buffer, offline downloads, background revalidation of cached
    /// playlists.
    case deep = 3
    /// A fetch whose client went away: finished only while nothing else needs the link.
    case orphaned = 4

    static func < (lhs: FetchUrgency, rhs: FetchUrgency) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    var description: String {
        switch self {
        case .start: "start"
        case .ahead: "ahead"
        case .buffering: "buffering"
        case .deep: "deep"
        case .orphaned: "orphaned"
        }
    }
}
