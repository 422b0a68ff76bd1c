#if DASH
import CacheProxyParsing
import DASH
import SparseFile

/// What a served MPD tells the proxy about the requests its player is about to make: init
/// sections and `sidx` ranges take the express lane (a player plays nothing before it has
/// them), and the first segments of a static presentation are fetched as a start, as
/// ``PlaylistResponder`` does for HLS.
struct DASHPlayerResources {
    let environment: FetchEnvironment

    /// Representations looked at per MPD: enough for any real ladder, bounded for hostile ones.
    static let maximumRepresentations = 64

    func register(_ manifest: DASHManifest, manifestURL: DASHAbsoluteURL) {
        let isStatic = manifest.type == .static
        for representation in manifest.representations.prefix(Self.maximumRepresentations) {
            if let initialization = try? representation.initializationRequest(manifestURL: manifestURL) {
                register(initialization, in: environment.express)
            }
            if let index = representation.indexRequest(manifestURL: manifestURL) {
                register(index, in: environment.express)
            }
            // A live player starts near the live edge: which segments are its start cannot be
            // told from the MPD alone.
            guard isStatic, let starting = try? representation.segmentRequests(
                manifestURL: manifestURL, in: DASHTimeRange(start: 0, end: PlaylistResponder.startSeconds)) else { continue }
            for request in starting.prefix(Self.startingSegmentsPerRepresentation) {
                register(request, in: environment.startingSegments)
            }
        }
    }

    /// Segments registered as a start per Representation, whatever their durations.
    private static let startingSegmentsPerRepresentation = 4

    private func register(_ request: DASHSegmentRequest, in registry: RangeRegistry) {
        guard let origin = try? OriginURL(parsing: request.url) else { return }
        let range = request.byteRange.flatMap { range in range.length.flatMap { ByteRange(offset: range.first, length: $0) } }
        registry.register(environment.store.key(for: origin.string), range: range)
    }
}
#endif
