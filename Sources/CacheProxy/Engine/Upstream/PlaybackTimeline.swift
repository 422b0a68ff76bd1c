import SparseFile
import Synchronization

/// Where a player's segment requests fall on its presentation's timeline, so that the proxy
/// can tell how long the player's buffer lasts without a session.
///
/// A VOD media playlist served to a player registers its segments with their media start
/// times; the moment it is served is taken as the start of playback (a player asks for the
/// first segments at once and plays as soon as they are in), moved to the end of a start
/// segment's response when those came from the origin. The estimate errs early (towards
/// escalating too soon, never too late). A later request for a segment
/// that starts `t` seconds into the presentation is needed by `served + t`; its fetch runs as
/// ``FetchUrgency/buffering`` until ``lead`` before that, then as a start.
///
/// A request whose previous segment is neither cached nor being fetched is a jump (a seek): the
/// player waits on it as on a start. Live playlists are not registered (a live player's
/// position is not the playlist's start). Bounded: the oldest presentations are forgotten first,
/// and only the first ``segmentsPerPresentation`` segments of each are placed.
final class PlaybackTimeline: Sendable {
    /// One segment of a registered presentation.
    struct Placement: Sendable {
        /// When the segment's first frame plays, if playback runs on from the playlist's serving.
        var deadline: ContinuousClock.Instant
        /// The previous segment of the presentation (nil for the first).
        var previous: Segment?
    }

    /// A segment: its entry's key and the byte range of it (nil: the whole resource).
    struct Segment: Sendable, Hashable {
        var key: String
        var range: ByteRange?
    }

    private struct Presentation {
        var served: ContinuousClock.Instant
        var segments: [Segment]
        var mediaStarts: [Double]
    }

    private struct State {
        var presentations: [String: Presentation] = [:]
        var order: [String] = []
        /// Entry key → the segments of remembered presentations in it.
        var index: [String: [(range: ByteRange?, presentation: String, position: Int)]] = [:]
    }

    private let state = Mutex(State())
    /// How long before a player's buffer runs out its next segment becomes a start. Every
    /// moment of it is taken from the next video's start buffer: at 3 Mbit/s a 2.4 Mbit/s feed
    /// keeps the next head ready only with half a second (the feed benchmark).
    static let lead: Duration = .milliseconds(500)
    private static let capacity = 64
    static let segmentsPerPresentation = 4096

    /// A player was served the media playlist `presentation` (its key) listing `segments`, each
    /// with the media time it starts at, in playback order.
    func register(_ presentation: String, segments: [(segment: Segment, mediaStart: Double)], now: ContinuousClock.Instant = .now) {
        let kept = Array(segments.prefix(Self.segmentsPerPresentation))
        state.withLock { state in
            if let old = state.presentations.removeValue(forKey: presentation) {
                Self.unindex(old, of: presentation, in: &state)
                state.order.removeAll { $0 == presentation }
            }
            state.presentations[presentation] = Presentation(served: now, segments: kept.map(\.segment), mediaStarts: kept.map(\.mediaStart))
            state.order.append(presentation)
            for (position, entry) in kept.enumerated() {
                state.index[entry.segment.key, default: []].append((entry.segment.range, presentation, position))
            }
            if state.order.count > Self.capacity {
                let oldest = state.order.removeFirst()
                if let old = state.presentations.removeValue(forKey: oldest) { Self.unindex(old, of: oldest, in: &state) }
            }
        }
    }

    private static func unindex(_ presentation: Presentation, of name: String, in state: inout State) {
        for key in Set(presentation.segments.map(\.key)) {
            state.index[key]?.removeAll { $0.presentation == name }
            if state.index[key]?.isEmpty == true { state.index[key] = nil }
        }
    }

    /// A response of a start segment at `offset` of `key` (fetched from the origin) ended: the
    /// player starts playing now, later than the playlist's serving by the time the fetch took.
    func playbackStarted(_ key: String, offset: UInt64, now: ContinuousClock.Instant = .now) {
        state.withLock { state in
            guard let found = Self.find(key, offset: offset, in: state), let served = state.presentations[found.presentation]?.served else { return }
            state.presentations[found.presentation]?.served = max(served, now)
        }
    }

    private static func find(_ key: String, offset: UInt64, in state: State) -> (range: ByteRange?, presentation: String, position: Int)? {
        state.index[key]?.last { entry in
            guard let range = entry.range else { return true }
            return range.offset <= offset && offset < range.end
        }
    }

    /// Where a request for bytes from `offset` of `key` falls, when they are a registered
    /// segment's (a player asks a byte-range segment from its first byte).
    func place(_ key: String, offset: UInt64) -> Placement? {
        state.withLock { state in
            guard let found = Self.find(key, offset: offset, in: state), let presentation = state.presentations[found.presentation] else { return nil }
            let seconds = min(max(presentation.mediaStarts[found.position], 0), 86_400)
            let previous = found.position > 0 ? presentation.segments[found.position - 1] : nil
            return Placement(deadline: presentation.served + .milliseconds(Int64(seconds * 1000)), previous: previous)
        }
    }
}
