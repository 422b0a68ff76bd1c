import CacheProxyParsing
import HLS

/// The segments a session wants fetched, nearest first: on its main timeline, those after the
/// player's position (from the start before its first segment request) that make up the
/// amount asked for; on the renditions played beside it (alternative audio), those covering the
/// same stretch of media time.
enum BufferWindow {
    /// - Parameters:
    ///   - position: the segment of `main` the player last asked for; nil before it asked for one.
    ///   - limit: segments at and past this index are never fetched (head-only caching sends
    ///     them to the origin).
    static func slots(
        main: SessionTimeline, position: Int?, amount: PlaybackSessionRequest.Amount, limit: Int?,
        companions: [SessionTimeline]
    ) -> [SessionBuffer.Slot] {
        guard !main.isLive else { return [] }
        let first = position.map { $0 + 1 } ?? 0
        let end = min(main.count, limit ?? main.count)
        guard first < end else { return [] }
        let range: Range<Int>
        switch amount {
        case .segments(let count): range = first..<min(end, first + count)
        case .seconds(let seconds): range = first..<min(end, main.times.segments(from: first, covering: seconds).upperBound)
        }
        guard !range.isEmpty else { return [] }
        var timed = range.map { (time: main.times.startTime(ofSegment: $0), slot: SessionBuffer.Slot(timeline: main.playlistKey, segment: $0)) }
        let from = main.times.startTime(ofSegment: range.lowerBound)
        let to = main.times.startTime(ofSegment: range.upperBound)
        for companion in companions where !companion.isLive && companion.count > 0 {
            guard let start = companion.times.segment(at: from) else { continue }
            var index = start
            while index < companion.count, companion.times.startTime(ofSegment: index) < to {
                timed.append((companion.times.startTime(ofSegment: index), SessionBuffer.Slot(timeline: companion.playlistKey, segment: index)))
                index += 1
            }
        }
        // Stable: at equal times the main timeline's segment comes first.
        return timed.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element.slot)
    }
}
