import CacheProxyParsing
import HLS
import SparseFile

/// What to fetch to play an HLS presentation: the variant to pick, and for a media playlist its
/// init sections, keys and segments in playback order.
enum HLSWarmPlan {
    /// One resource to fetch: a whole URL or a byte range of it.
    struct Item: Sendable, Hashable {
        enum Kind: Sendable, Hashable {
            case initSection
            case key
            case segment(duration: Double)
        }

        var origin: OriginURL
        var range: ByteRange?
        var kind: Kind
        /// The size, when the playlist tells it (byte ranges).
        var knownBytes: UInt64?
    }

    /// The variant of a multivariant playlist to warm, by the rules every variant choice of
    /// the proxy follows (``HLSQuality``; I-frame variants are not candidates).
    static func variant(of master: HLSPlaylist, choosing choice: PrefetchRequest.VariantChoice) -> HLSVariant? {
        master.variant(for: choice.quality).map { master.variants[$0.index] }
    }

    /// The renditions a variant plays with: for each of its audio and subtitle groups, the
    /// default rendition (or the first) that has its own playlist.
    static func renditions(for variant: HLSVariant, in master: HLSPlaylist) -> [HLSRendition] {
        var chosen: [HLSRendition] = []
        for (type, group) in [("AUDIO", variant.audio), ("SUBTITLES", variant.subtitles)] {
            guard let group else { continue }
            let members = master.renditions.filter { $0.type == type && $0.groupID == group && $0.uri != nil }
            if let pick = members.first(where: \.isDefault) ?? members.first { chosen.append(pick) }
        }
        return chosen
    }

    /// The resources of `media` (fetched from `url`) in playback order, each init section and
    /// key before the first segment that needs it, up to `budget` (nil: everything). A bytes
    /// budget selects every segment; the caller stops when the bytes run out.
    static func items(of media: HLSPlaylist, url: String, budget: PrefetchRequest.Budget?) -> [Item] {
        guard let base = HLSBaseURL(url) else { return [] }
        func origin(_ uri: String) -> OriginURL? { try? OriginURL(parsing: base.resolve(uri)) }
        func range(_ byteRange: HLSByteRange?) -> ByteRange? {
            byteRange.flatMap { ByteRange(offset: $0.offset, length: $0.length) }
        }
        var items: [Item] = []
        var seen = Set<Item>()
        func add(_ item: Item) {
            if seen.insert(item).inserted { items.append(item) }
        }
        var seconds = 0.0
        var count = 0
        for segment in media.segments {
            switch budget {
            case .seconds(let limit)? where seconds >= limit: return items
            case .segments(let limit)? where count >= limit: return items
            default: break
            }
            guard !segment.gap, let segmentOrigin = origin(segment.uri) else { continue }
            if let map = segment.map, let mapOrigin = origin(map.uri) {
                add(Item(origin: mapOrigin, range: range(map.byteRange), kind: .initSection, knownBytes: map.byteRange?.length))
            }
            for key in segment.keys {
                if let uri = key.uri, let keyOrigin = origin(uri) { add(Item(origin: keyOrigin, range: nil, kind: .key, knownBytes: nil)) }
            }
            let duration = segment.duration.value
            add(Item(origin: segmentOrigin, range: range(segment.byteRange), kind: .segment(duration: duration), knownBytes: segment.byteRange?.length))
            seconds += max(0, duration)
            count += 1
        }
        return items
    }
}
