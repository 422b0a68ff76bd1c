import SparseFile
import Synchronization

/// Resources (whole or byte ranges of them) that playlists named for a purpose, remembered so
/// that a later request for them is recognised: init segments (`EXT-X-MAP`) and keys take the
/// express lane, since a player can play nothing before it has them; a presentation's first
/// segments are fetched as a start (``FetchUrgency/start``). Bounded: the oldest keys are
/// forgotten first.
final class RangeRegistry: Sendable {
    private struct State {
        /// Key → the byte ranges named (nil: the whole resource).
        var ranges: [String: [ByteRange?]] = [:]
        var order: [String] = []
    }

    private let state = Mutex(State())
    /// Keys remembered; the oldest are forgotten first.
    private static let capacity = 4096
    private static let rangesPerKey = 64

    func register(_ key: String, range: ByteRange?) {
        state.withLock { state in
            if state.ranges[key] == nil {
                state.order.append(key)
                if state.order.count > Self.capacity { state.ranges[state.order.removeFirst()] = nil }
            }
            var ranges = state.ranges[key, default: []]
            guard !ranges.contains(range), ranges.count < Self.rangesPerKey else { return }
            ranges.append(range)
            state.ranges[key] = ranges
        }
    }

    /// Whether a request for `range` of `key` (nil: from the start, length unknown) lies within
    /// something registered.
    func contains(_ key: String, range: ByteRange?) -> Bool {
        state.withLock { state in
            guard let named = state.ranges[key] else { return false }
            return named.contains { entry in
                guard let entry else { return true }
                guard let range else { return false }
                return range.offset >= entry.offset && range.end <= entry.end
            }
        }
    }
}
