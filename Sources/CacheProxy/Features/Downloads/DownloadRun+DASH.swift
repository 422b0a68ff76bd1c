#if DASH
import CacheProxyParsing
import DASH
import SparseFile

extension DownloadRun {
    /// A DASH presentation: the MPD (stored raw, as the proxy serves it), then per chosen
    /// Representation its `sidx` (a SegmentBase's segments are the ranges it lists, so it is
    /// fetched and read first), init section and every segment (``DASHDownloadPlan``).
    func downloadDASHPresentation(_ origin: OriginURL) async throws {
        expect(resources: 1, segments: 0)
        let loaded = try await withRetries(origin.string) {
            try await PlaylistLoader(environment: self.environment, lane: .segment, urgency: .deep, headers: self.options.headers)
                .load(origin, as: DASHManifest.self, allowsStale: false)
        }
        done(origin, fetched: loaded.source == .origin ? UInt64(loaded.body.count) : 0, isSegment: false)
        guard let manifest = loaded.document, let manifestURL = DASHAbsoluteURL(loaded.url) else {
            throw DownloadError(code: .unplayable, message: "\(origin) is not an MPD that parses", failures: [])
        }
        try DASHDownloadPlan.check(manifest, manifestURL: manifestURL, origin: origin)
        var items: [HLSWarmPlan.Item] = []
        var seen = Set<HLSWarmPlan.Item>()
        var beyondTheEnd: [HLSWarmPlan.Item] = []
        var segments = 0
        let representations = DASHDownloadPlan.representations(of: manifest, choosing: options.variant, all: options.allVariants)
        for representation in representations {
            let index = try await segmentIndex(of: representation, manifestURL: manifestURL, origin: origin)
            let planned = try DASHDownloadPlan.items(of: representation, manifestURL: manifestURL, index: index,
                                                     maximumSegments: options.maximumSegments - segments, origin: origin)
            beyondTheEnd += planned.beyondTheEnd.map { [$0] } ?? []
            for item in planned.items where seen.insert(item).inserted {
                items.append(item)
                if case .segment = item.kind { segments += 1 }
            }
        }
        expect(resources: items.count, segments: segments)
        try await fetchAll(items)
        // The segments one past the end some players read (DASHDownloadPlan.trailingSegment):
        // kept when the origin has them, never a failure when it does not.
        for item in beyondTheEnd {
            guard let fetched = try? await warmer.bytes(item.origin, attempts: 1) else {
                try Task.checkCancellation()
                continue
            }
            expect(resources: 1, segments: 0)
            done(item.origin, fetched: fetched, isSegment: false)
        }
    }

    /// A SegmentBase Representation's `sidx`: fetched (counted as a resource) and read back
    /// from the cache. Nil for other kinds of addressing.
    private func segmentIndex(of representation: DASHRepresentation, manifestURL: DASHAbsoluteURL,
                              origin: OriginURL) async throws -> DASHSegmentIndex? {
        guard let request = representation.indexRequest(manifestURL: manifestURL) else { return nil }
        guard let (indexOrigin, range) = DASHWarmPlan.resource(of: request), let range else {
            throw DownloadError(code: .unplayable, message: "\(origin): the index of Representation \(representation.id ?? "") has no byte range to fetch",
                                failures: [])
        }
        expect(resources: 1, segments: 0)
        let fetched = try await withRetries(indexOrigin.string) {
            try await self.warmer.bytes(indexOrigin, range: range, attempts: self.options.attempts)
        }
        done(indexOrigin, fetched: fetched, isSegment: false)
        let file = environment.store.reader(for: environment.upstream.entryKey(for: indexOrigin, headers: options.headers)).file
        guard let file, case .bytes(let bytes) = try file.read(range) else {
            throw DownloadError(message: "\(indexOrigin): the index bytes \(range) were fetched but cannot be read back", failures: [])
        }
        do {
            return try DASHSegmentIndex(parsing: bytes, fileOffset: range.offset)
        } catch {
            throw DownloadError(code: .unplayable, message: "\(indexOrigin): the sidx box at bytes \(range) does not parse (\(error.code)): \(error)",
                                failures: [])
        }
    }
}
#endif
