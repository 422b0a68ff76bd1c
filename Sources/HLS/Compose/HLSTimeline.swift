/// Where each segment of a media playlist starts in media time: what a proxy needs to turn a
/// player's segment request into a playback position, and a number of seconds into a number
/// of segments.
///
/// Times are sums of the EXTINF durations as written, added exactly in whole nanoseconds (so
/// the start of segment 1,000 of a `6.006` playlist is 6006 s, not 6005.999999...), and
/// reported as seconds. Segment N starts where segment N-1 ends; discontinuities, gaps and
/// EXT-X-PROGRAM-DATE-TIME do not move it.
///
/// ```swift
/// let timeline = HLSTimeline(playlist)
/// let position = timeline.startTime(ofSegment: 12)             // seconds
/// let window = timeline.segments(from: 13, covering: 30)       // the next 30 s of segments
/// let atTen = timeline.segment(at: 10)                         // the segment playing at 10 s
/// ```
public struct HLSTimeline: Hashable, Sendable {
    /// `boundaries[i]` is where segment `i` starts, in nanoseconds; the last entry is the total.
    let boundaries: [UInt64]

    /// The timeline of a media playlist's segments (empty for a multivariant playlist).
    public init(_ playlist: HLSPlaylist) {
        let records = playlist.storage.segments
        var boundaries: [UInt64] = [0]
        boundaries.reserveCapacity(records.count + 1)
        var end: UInt64 = 0
        playlist.bytes.withUnsafeBufferPointer { source in
            for record in records {
                let text = UnsafeBufferPointer(rebasing: source[record.duration.lowerBound..<record.duration.upperBound])
                let (sum, overflow) = end.addingReportingOverflow(SegmentDuration(text).nanoseconds)
                end = overflow ? .max : sum
                boundaries.append(end)
            }
        }
        self.boundaries = boundaries
    }

    /// The number of segments.
    public var count: Int { boundaries.count - 1 }

    /// The sum of every segment's duration, in seconds.
    public var totalDuration: Double { Self.seconds(boundaries[boundaries.count - 1]) }

    /// Where segment `index` starts, in seconds from the start of the playlist; `count` gives
    /// the end of the last segment. `index` must be in `0...count`.
    public func startTime(ofSegment index: Int) -> Double {
        precondition(index >= 0 && index <= count, "segment index out of range")
        return Self.seconds(boundaries[index])
    }

    /// The duration of segment `index` in seconds, as its EXTINF says (to the nanosecond).
    /// `index` must be in `0..<count`.
    public func duration(ofSegment index: Int) -> Double {
        precondition(index >= 0 && index < count, "segment index out of range")
        return Self.seconds(boundaries[index + 1] - boundaries[index])
    }

    /// The duration of the segments in `range`, in seconds. `range` must lie in `0...count`.
    public func duration(of range: Range<Int>) -> Double {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "segment range out of range")
        return Self.seconds(boundaries[range.upperBound] - boundaries[range.lowerBound])
    }

    /// The segment playing at `time` seconds: the last one that starts at or before it (so a
    /// zero-length segment is never the answer when a later one starts at the same time).
    /// Nil before 0 and from the end of the last segment on.
    public func segment(at time: Double) -> Int? {
        guard time >= 0, time < totalDuration else { return nil }
        let target = Self.nanoseconds(time)
        // The first boundary after `target`, minus one.
        var low = 0
        var high = boundaries.count
        while low < high {
            let middle = (low + high) / 2
            if boundaries[middle] <= target { low = middle + 1 } else { high = middle }
        }
        return min(low - 1, count - 1)
    }

    /// The fewest segments from `index` on whose durations add up to at least `seconds`, or
    /// every segment from `index` to the end when they do not. Empty when `seconds` is 0 or
    /// less, or `index` is `count`. `index` must be in `0...count`.
    ///
    /// This is a buffer window: `segments(from: position + 1, covering: 30)` lists the segments
    /// to have fetched for 30 s of playback after the one playing.
    public func segments(from index: Int, covering seconds: Double) -> Range<Int> {
        precondition(index >= 0 && index <= count, "segment index out of range")
        guard seconds > 0 else { return index..<index }
        let (goal, overflow) = boundaries[index].addingReportingOverflow(Self.nanoseconds(seconds))
        if overflow { return index..<count }
        // The first boundary at or after `goal` ends the window.
        var low = index
        var high = boundaries.count - 1
        while low < high {
            let middle = (low + high) / 2
            if boundaries[middle] < goal { low = middle + 1 } else { high = middle }
        }
        return index..<low
    }

    /// One correctly rounded division: exact sums give the seconds a person would write
    /// (12.012, not 12.011999999999999) for any time below 2^53 ns, about 104 days.
    static func seconds(_ nanoseconds: UInt64) -> Double {
        Double(nanoseconds) / Double(SegmentDuration.nanosecondsPerSecond)
    }

    /// `seconds` in whole nanoseconds, rounded to the nearest, saturating.
    static func nanoseconds(_ seconds: Double) -> UInt64 {
        let value = (seconds * Double(SegmentDuration.nanosecondsPerSecond)).rounded()
        guard value < 18_446_744_073_709_551_615.0 else { return .max }
        return value > 0 ? UInt64(value) : 0
    }
}
