extension PlaybackSessionStatus {
    /// Where a playback session is, as ``PlaybackSessionStatus/state`` and the JSON field `state`
    /// give it (`active`, `idle` or `closed`).
    public enum State: StatusState {
        /// `active`: its player made a request within its idle timeout; its buffering runs.
        case active
        /// `idle`: no request for its idle timeout: its fetches stopped, and its player's next
        /// request resumes it.
        case idle
        /// `closed`: closed for good (by `DELETE`, ``PlaybackSession/close()``, or to make room
        /// for a new session past the limit); its URLs get `410`.
        case closed
        /// A state this version does not know, with its name (one a newer proxy reports).
        case unknown(String)

        public static let known: [State] = [.active, .idle, .closed]

        public var rawValue: String {
            switch self {
            case .active: "active"
            case .idle: "idle"
            case .closed: "closed"
            case .unknown(let name): name
            }
        }
    }
}
