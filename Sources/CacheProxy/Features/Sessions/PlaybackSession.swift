/// A playback session an app opened with ``CacheProxy/openSession(_:)``: give the player
/// ``playlistURL``; every request it makes through that URL belongs to the session, which
/// follows the player's position and acts on it (buffering ahead, hiding what is not cached,
/// holding the start), as the ``PlaybackSessionRequest`` asked.
///
/// ```swift
/// var request = PlaybackSessionRequest(url: try OriginURL(parsing: "https://cdn.example.com/v/master.m3u8"))
/// request.quality = .height(720)
/// request.bufferAhead = .seconds(30)
/// let session = try await proxy.openSession(request)
/// player.replaceCurrentItem(with: AVPlayerItem(url: URL(string: session.playlistURL)!))
/// // ... when the player goes away:
/// session.close()
/// ```
///
/// After its idle timeout without requests a session goes idle: its fetches stop, its URLs keep
/// working, and its player's next request resumes it where it was (a paused player). Only
/// ``close()`` (or `DELETE`) closes it, or a new session that needs the place of the least
/// recently used idle one past the limit of open sessions. Closing stops its fetches at once;
/// what they cached stays in the store.
public final class PlaybackSession: Sendable {
    private let engine: SessionEngine
    private let registry: SessionRegistry

    init(engine: SessionEngine, registry: SessionRegistry) {
        self.engine = engine
        self.registry = registry
    }

    /// The session's identifier, as in its URLs.
    public var id: String { engine.id }

    /// The absolute URL to give the player.
    public var playlistURL: String { engine.presentation.playlistURL }

    /// What the session is doing now (its final state once closed).
    public var status: PlaybackSessionStatus { registry.closedSession(id) ?? engine.status }

    /// Closes the session: its fetches stop at once. Closing twice does nothing.
    public func close() {
        _ = registry.close(id)
    }
}
