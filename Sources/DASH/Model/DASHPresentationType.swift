/// `MPD@type`: whether the presentation is on demand or live.
public enum DASHPresentationType: String, Hashable, Sendable {
    /// On demand: every segment is available; the MPD does not change (`static`, the default).
    case `static`
    /// Live: segments become available over time and the MPD is refetched every
    /// `minimumUpdatePeriod` (`dynamic`).
    case dynamic
}
