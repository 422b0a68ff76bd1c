@testable import CacheProxy
import SparseFile
import Testing

/// Placing a player's segment requests on the timeline of the playlist it was served, which
/// tells how long its buffer lasts.
@Suite("A player's segments on its presentation's timeline")
struct PlaybackTimelineTests {
    private func segments(_ count: Int, seconds: Double = 4, key: (Int) -> String = { "seg\($0).ts" })
        -> [(segment: PlaybackTimeline.Segment, mediaStart: Double)] {
        (0..<count).map { (PlaybackTimeline.Segment(key: key($0), range: nil), Double($0) * seconds) }
    }

    @Test("A segment is needed when playback from the playlist's serving reaches its media start")
    func deadlineIsServedPlusMediaStart() throws {
        let timeline = PlaybackTimeline()
        let served = ContinuousClock.now
        timeline.register("v/index.m3u8", segments: segments(5), now: served)
        let third = try #require(timeline.place("seg2.ts", offset: 0))
        #expect(third.deadline == served + .seconds(8))
        #expect(third.previous == PlaybackTimeline.Segment(key: "seg1.ts", range: nil))
        #expect(try #require(timeline.place("seg0.ts", offset: 0)).previous == nil)
        #expect(timeline.place("other.ts", offset: 0) == nil, "a segment of no playlist served is not placed")
    }

    @Test("Byte-range segments of one file are told apart by the offset asked for")
    func byteRangeSegments() throws {
        let timeline = PlaybackTimeline()
        let served = ContinuousClock.now
        let ranges = (0..<3).map { index in
            (segment: PlaybackTimeline.Segment(key: "all.ts", range: ByteRange(offset: UInt64(index) * 1000, length: 1000)),
             mediaStart: Double(index) * 2)
        }
        timeline.register("v/index.m3u8", segments: ranges, now: served)
        #expect(try #require(timeline.place("all.ts", offset: 1500)).deadline == served + .seconds(2))
        #expect(try #require(timeline.place("all.ts", offset: 2000)).previous == ranges[1].segment)
        #expect(timeline.place("all.ts", offset: 3000) == nil, "past the last range")
    }

    @Test("A start segment fetched from the origin moves the start of playback to the end of its response, never earlier")
    func startSegmentMovesThePlaybackStart() throws {
        let timeline = PlaybackTimeline()
        let served = ContinuousClock.now
        timeline.register("v/index.m3u8", segments: segments(3), now: served)
        timeline.playbackStarted("seg0.ts", offset: 0, now: served + .seconds(3))
        #expect(try #require(timeline.place("seg1.ts", offset: 0)).deadline == served + .seconds(7))
        timeline.playbackStarted("seg0.ts", offset: 0, now: served + .seconds(1))
        #expect(try #require(timeline.place("seg1.ts", offset: 0)).deadline == served + .seconds(7))
    }

    @Test("Serving the playlist again starts the timeline again")
    func servingAgainRestarts() throws {
        let timeline = PlaybackTimeline()
        let first = ContinuousClock.now
        timeline.register("v/index.m3u8", segments: segments(3), now: first)
        let again = first + .seconds(100)
        timeline.register("v/index.m3u8", segments: segments(3), now: again)
        #expect(try #require(timeline.place("seg1.ts", offset: 0)).deadline == again + .seconds(4))
    }

    @Test("The oldest presentations are forgotten first, and a huge or invalid media time is clamped")
    func bounded() throws {
        let timeline = PlaybackTimeline()
        for index in 0...64 {
            timeline.register("v\(index)", segments: segments(2) { "v\(index)-seg\($0)" })
        }
        #expect(timeline.place("v0-seg1", offset: 0) == nil)
        #expect(timeline.place("v64-seg1", offset: 0) != nil)
        let served = ContinuousClock.now
        let odd = [(PlaybackTimeline.Segment(key: "a", range: nil), Double.infinity), (PlaybackTimeline.Segment(key: "b", range: nil), -.infinity)]
        timeline.register("odd", segments: odd, now: served)
        #expect(try #require(timeline.place("a", offset: 0)).deadline == served + .seconds(86_400))
        #expect(try #require(timeline.place("b", offset: 0)).deadline == served)
    }
}
