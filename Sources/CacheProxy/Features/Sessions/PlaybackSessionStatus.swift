/// What `GET /sessions/ID` reports about a playback session, as a value
/// (``PlaybackSession/status``) and as JSON. Absent values are `null`, never left out.
public struct PlaybackSessionStatus: Sendable, Hashable, Codable {
    /// The variant a session is locked to.
    public struct Quality: Sendable, Hashable, Codable {
        @EncodedAsNull public var bandwidth: UInt64?
        /// `WIDTHxHEIGHT`, as the playlist writes it.
        @EncodedAsNull public var resolution: String?
    }

    /// The player's last segment request.
    public struct Position: Sendable, Hashable, Codable {
        /// The segment's index in its media playlist (in the joined list of a virtual playlist).
        public var segment: Int
        /// Where the segment starts, in seconds of media time.
        public var seconds: Double
    }

    public var id: String
    /// `active`, `idle` (no request for its idle timeout: its fetches stopped, and its player's
    /// next request resumes it) or `closed` (by `DELETE`, ``PlaybackSession/close()``, or to
    /// make room for a new session past the limit).
    public var state: State
    /// The URL to give the player.
    public var playlist: String
    /// The presentations the session plays.
    public var urls: [String]
    /// The locked variant; nil when the session keeps every variant.
    @EncodedAsNull public var quality: Quality?
    /// Nil before the player asked for a segment.
    @EncodedAsNull public var position: Position?
    /// The segments cached contiguously after the position (from the start before the first
    /// segment request), and their duration.
    public var bufferedSegments: Int
    public var bufferedAheadSeconds: Double
    public var activeRequests: Int
    /// The median time the proxy took to answer the session's recent requests (to the response
    /// head); nil before the first.
    @EncodedAsNull public var latencyMs: Double?
    public var bytesServed: UInt64
    /// Bytes fetched from origins for the session: its player's misses and its own buffering.
    public var bytesFromOrigin: UInt64
    /// Seconds since the session's last request.
    public var idleSeconds: Double
    /// Why the session's last failed request or fetch failed (an origin's `403` when its
    /// credentials expired, say); nil until one fails.
    @EncodedAsNull public var lastError: String? = nil
    /// The names of the header fields the session sends its origins; never their values.
    public var headers: [String] = []
    /// How many times the session came back from `idle`.
    public var resumes: Int = 0
}
