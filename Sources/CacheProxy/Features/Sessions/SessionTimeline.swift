import CacheProxyParsing
import CacheStore
import HLS
import SparseFile

/// A media playlist as a session plays it: for each segment, what to fetch (its bytes, and the
/// init section and key it needs), and where it starts in media time. A player's request for a
/// segment becomes a position through ``segment(key:offset:)``.
struct SessionTimeline: Sendable {
    /// One resource to have cached: a whole URL or a byte range of it.
    struct Resource: Sendable, Hashable {
        var origin: OriginURL
        var key: String
        var range: ByteRange?
    }

    struct Segment: Sendable {
        /// Nil for a gap (nothing to fetch) or a URI the proxy cannot fetch.
        var media: Resource?
        /// The init section and keys the segment needs, first.
        var prerequisites: [Resource]
    }

    /// Which part of a presentation a timeline plays.
    enum Role: Sendable, Hashable {
        /// The video (or muxed) media of a variant, a single media playlist, or a virtual
        /// playlist: what the player's position is measured on. With the AUDIO group of the
        /// variant, whose rendition is buffered beside it.
        case main(audioGroup: String?)
        /// A rendition (alternative audio) of group `groupID`, played beside the main timeline.
        case rendition(type: String, groupID: String)
    }

    /// The store key of the media playlist's URL: the timeline's identity in the session.
    let playlistKey: String
    let role: Role
    let segments: [Segment]
    let times: HLSTimeline
    let isLive: Bool
    /// Finds a segment from a player's request, by the segment's cache key.
    private let locator: HLSSegmentLocator?

    init(playlist: HLSPlaylist, url: String, playlistKey: String, role: Role, store: CacheStore) {
        self.playlistKey = playlistKey
        self.role = role
        times = HLSTimeline(playlist)
        isLive = playlist.isLive
        let base = HLSBaseURL(url)
        func resource(_ uri: String, _ byteRange: HLSByteRange?) -> Resource? {
            guard let base, let origin = try? OriginURL(parsing: base.resolve(uri)) else { return nil }
            return Resource(origin: origin, key: store.key(for: origin.string),
                            range: byteRange.flatMap { ByteRange(offset: $0.offset, length: $0.length) })
        }
        var segments: [Segment] = []
        for segment in playlist.segments {
            var prerequisites: [Resource] = []
            if let map = segment.map, let initSection = resource(map.uri, map.byteRange) { prerequisites.append(initSection) }
            for key in segment.keys { if let uri = key.uri, let keyResource = resource(uri, nil) { prerequisites.append(keyResource) } }
            segments.append(Segment(media: segment.gap ? nil : resource(segment.uri, segment.byteRange), prerequisites: prerequisites))
        }
        self.segments = segments
        locator = base.map { base in
            HLSSegmentLocator(playlist, base: base) { uri in (try? OriginURL(parsing: uri)).map { store.key(for: $0.string) } ?? uri }
        }
    }

    var count: Int { segments.count }

    /// The segment a request for `key` starting at `offset` (nil: no Range) reads: the one whose
    /// bytes hold that offset, for segments that are byte ranges of one resource, and of a key
    /// listed more than once, the first listing after `previous` (a player plays in order).
    func segment(key: String, offset: UInt64?, after previous: Int?) -> Int? {
        locator?.segmentIndex(for: key, byteOffset: offset, after: previous)
    }

    /// Whether every byte of segment `index` is in the store.
    func isCached(_ index: Int, store: CacheStore) -> Bool {
        guard let media = segments[index].media else { return true }
        return media.isCached(in: store)
    }

    /// How many segments from the first are cached, without a gap.
    func cachedPrefix(store: CacheStore) -> Int {
        var count = 0
        while count < segments.count, isCached(count, store: store) { count += 1 }
        return count
    }
}

extension SessionTimeline.Resource {
    /// Whether every byte of the resource is in the store.
    func isCached(in store: CacheStore) -> Bool {
        guard let file = store.reader(for: key).file else { return false }
        if let range {
            return file.cachedLength(from: range.offset) >= range.length
        }
        guard let length = file.contentLength else { return false }
        return file.cachedLength(from: 0) >= length
    }
}
