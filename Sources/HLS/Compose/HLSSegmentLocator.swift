/// Finds a media playlist's segment from the URI a player asked for: the other half, with
/// ``HLSTimeline``, of knowing where a player is.
///
/// Segments are keyed by their URI resolved against the playlist's URL, the string that
/// ``HLSPlaylist/rewritten(base:policy:)`` writes (percent-encoded, behind a proxy endpoint)
/// and a proxy decodes from its `url=` parameter. A caller that normalizes URLs before using
/// them (lower-case host, no default port, no fragment) passes the same normalization as `key`
/// and looks up normalized URLs.
///
/// ```swift
/// let locator = HLSSegmentLocator(playlist, base: base) { (try? OriginURL(parsing: $0).string) ?? $0 }
/// let index = locator.segmentIndex(for: requested.string, byteOffset: rangeStart, after: lastIndex)
/// ```
public struct HLSSegmentLocator: Sendable {
    private struct Entry: Sendable {
        var index: Int
        var byteRange: HLSByteRange?
    }

    /// Segments by key, in playlist order.
    private let entries: [String: [Entry]]

    /// Indexes the segments of `playlist`, keyed by `key` of their URI resolved against `base`.
    public init(_ playlist: HLSPlaylist, base: HLSBaseURL, key: (String) -> String = { $0 }) {
        var entries: [String: [Entry]] = [:]
        for (index, segment) in playlist.segments.enumerated() {
            entries[key(base.resolve(segment.uri)), default: []].append(Entry(index: index, byteRange: segment.byteRange))
        }
        self.entries = entries
    }

    /// The index of the segment a request for `uri` (a key, as given to the initializer) is for.
    ///
    /// - Parameters:
    ///   - uri: the requested URI, normalized like the keys.
    ///   - byteOffset: the first byte asked for (a Range request's start). When several segments
    ///     share the URI as byte ranges of one resource, only those whose range holds this byte
    ///     are candidates; a segment without a byte range holds every byte. Nil: any segment
    ///     of that URI.
    ///   - previous: the index of the segment the player asked for before, if any. A URI
    ///     listed more than once (the same video joined twice, a looping slate) is then taken at
    ///     its first listing after `previous`, which is where a player playing in order is.
    /// - Returns: the first candidate after `previous`, else the first candidate; nil when no
    ///   segment matches.
    public func segmentIndex(for uri: String, byteOffset: UInt64? = nil, after previous: Int? = nil) -> Int? {
        guard let listed = entries[uri] else { return nil }
        let candidates = listed.lazy.filter { entry in
            guard let byteOffset, let range = entry.byteRange else { return true }
            return byteOffset >= range.offset && byteOffset - range.offset < range.length
        }
        if let previous, let next = candidates.first(where: { $0.index > previous }) {
            return next.index
        }
        return candidates.first?.index
    }
}
