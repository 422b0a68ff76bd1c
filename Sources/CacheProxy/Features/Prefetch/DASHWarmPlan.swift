#if DASH
import CacheProxyParsing
import DASH
import SparseFile

/// What prefetching warms of a DASH presentation, chosen from its MPD: the first Period's
/// AdaptationSets, one Representation each (the prefetch's variant choice by `@bandwidth`, as
/// HLS variants are chosen), and of each its init section, its `sidx` (SegmentBase) and its first
/// segments within the budget.
enum DASHWarmPlan {
    /// One Representation per AdaptationSet of the first Period.
    static func representations(of manifest: DASHManifest, choosing choice: PrefetchRequest.VariantChoice) -> [DASHRepresentation] {
        guard let period = manifest.periods.first else { return [] }
        return representations(of: period, choosing: choice)
    }

    /// One Representation per AdaptationSet of `period` (downloads choose in every Period).
    static func representations(of period: DASHPeriod, choosing choice: PrefetchRequest.VariantChoice) -> [DASHRepresentation] {
        period.adaptationSets.compactMap { adaptationSet in
            let candidates = adaptationSet.representations
            switch choice {
            case .lowest: return candidates.min { ($0.bandwidth ?? 0) < ($1.bandwidth ?? 0) }
            case .highest: return candidates.max { ($0.bandwidth ?? 0) < ($1.bandwidth ?? 0) }
            case .closest(let target):
                return candidates.min { distance($0.bandwidth ?? 0, target) < distance($1.bandwidth ?? 0, target) }
            case .height(let height):
                let target = UInt64(clamping: height)
                return candidates.min { distance($0.height ?? 0, target) < distance($1.height ?? 0, target) }
            }
        }
    }

    /// The span of the Period whose segments a budget asks for: a seconds budget its seconds;
    /// the others are cut by count or bytes as the segments are fetched.
    static func timeRange(for budget: PrefetchRequest.Budget) -> DASHTimeRange {
        if case .seconds(let seconds) = budget { return DASHTimeRange(start: 0, end: seconds) }
        return .all
    }

    /// The origin URL and byte range of a request, nil when its URL is not one the proxy fetches.
    static func resource(of request: DASHSegmentRequest) -> (origin: OriginURL, range: ByteRange?)? {
        guard let origin = try? OriginURL(parsing: request.url) else { return nil }
        guard let byteRange = request.byteRange else { return (origin, nil) }
        guard let length = byteRange.length, let range = ByteRange(offset: byteRange.first, length: length) else { return nil }
        return (origin, range)
    }

    private static func distance(_ a: UInt64, _ b: UInt64) -> UInt64 { a > b ? a - b : b - a }
}
#endif
