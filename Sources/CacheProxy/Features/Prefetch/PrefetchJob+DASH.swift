#if DASH
import CacheProxyParsing
import DASH
import SparseFile

extension PrefetchJob {
    /// An MPD, then per AdaptationSet of its first Period the chosen Representation's init
    /// section, its `sidx` (a SegmentBase's segments are the ranges it lists) and its first
    /// segments within the budget (``DASHWarmPlan``). A dynamic MPD is fetched, its segments are
    /// not: the player starts at the live edge.
    func warmDASHPresentation(_ url: OriginURL) async throws -> String? {
        try checkStillListed()
        try await admit(estimate: nil)
        let loaded = try await PlaylistLoader(environment: environment, lane: .segment, urgency: .ahead, headers: headers)
            .load(url, as: DASHManifest.self, allowsStale: false)
        let fetchedBytes = loaded.source == .origin ? UInt64(loaded.body.count) : 0
        spent.add(fetchedBytes, ordering: .relaxed)
        environment.metrics?.recordPrefetched(fetchedBytes)
        guard let manifest = loaded.document, let manifestURL = DASHAbsoluteURL(loaded.url) else {
            throw UpstreamError(.invalidResponse, "\(url) is not an MPD")
        }
        guard manifest.type == .static else { return "\(url) is dynamic: only its MPD was fetched" }
        for representation in DASHWarmPlan.representations(of: manifest, choosing: variant) {
            if let initialization = try? representation.initializationRequest(manifestURL: manifestURL) {
                try await fetch(initialization)
            }
            var index: DASHSegmentIndex?
            if let indexRequest = representation.indexRequest(manifestURL: manifestURL), let indexRange = try await fetch(indexRequest) {
                let file = environment.store.reader(for: environment.store.key(for: indexRange.origin.string)).file
                index = try file.flatMap { try read(indexRange.range, of: $0) }
                    .flatMap { try? DASHSegmentIndex(parsing: $0, fileOffset: indexRange.range.offset) }
            }
            guard let segments = try? representation.segmentRequests(manifestURL: manifestURL, in: DASHWarmPlan.timeRange(for: budget),
                                                                       index: index) else { continue }
            var seconds = 0.0
            var count = 0
            for segment in segments {
                if case .segments(let wanted) = budget, count >= wanted { break }
                try await fetch(segment, urgency: seconds < PlaylistResponder.startSeconds ? .ahead : .deep)
                seconds += segment.durationSeconds
                count += 1
            }
        }
        return nil
    }

    /// Fetches what a DASH request names within the budget; returns its origin and range when
    /// it had one (an index to read back).
    @discardableResult
    func fetch(_ request: DASHSegmentRequest, urgency: FetchUrgency = .ahead) async throws -> (origin: OriginURL, range: ByteRange)? {
        guard let (origin, range) = DASHWarmPlan.resource(of: request) else { return nil }
        try await fetch(origin, range: range, size: range?.length, urgency: urgency)
        return range.map { (origin, $0) }
    }
}
#endif
