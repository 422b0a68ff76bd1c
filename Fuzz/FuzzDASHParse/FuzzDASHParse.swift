import DASH

private let manifestURL = DASHAbsoluteURL("https://origin.example/a/b/manifest.mpd?token=t")

/// Parses arbitrary bytes in both modes and reads the whole model, segment lists included. It
/// must never trap; formatting must give the input back; where strict mode accepts the input,
/// lenient mode must accept it with no warning and the same Representations and segments.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDASHParse(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start, let manifestURL else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    _ = DASHManifest.looksLikeManifest(bytes)
    var limits = DASHParserLimits()
    limits.maximumSegmentsPerRepresentation = 1_000
    let strict = try? DASHManifest(parsing: bytes, options: DASHParserOptions(mode: .strict, limits: limits))
    guard let manifest = try? DASHManifest(parsing: bytes, options: DASHParserOptions(limits: limits)) else {
        precondition(strict == nil, "strict mode accepted what lenient mode refused")
        return 0
    }
    precondition(manifest.formatted() == bytes, "lossless formatting changed the bytes")
    let summary = summarize(manifest, limits: limits)
    if let strict {
        precondition(manifest.warnings.isEmpty, "strict mode accepted an MPD with warnings")
        precondition(summarize(strict, limits: limits) == summary, "strict and lenient mode read different models")
    }
    var checksum = manifest.warnings.count &+ manifest.locations.count &+ manifest.utcTimings.count
    checksum &+= manifest.remoteElements.count &+ manifest.root.children.count
    _ = (manifest.type, manifest.mediaPresentationDuration, manifest.minimumUpdatePeriod, manifest.baseURLs)
    return checksum == -1 ? 1 : 0
}

/// Every Representation's facts and its first segment requests (or the addressing error).
private func summarize(_ manifest: DASHManifest, limits: DASHParserLimits) -> [String] {
    guard let manifestURL else { return [] }
    var lines: [String] = []
    for period in manifest.periods {
        lines.append("period \(period.id ?? "-") \(String(describing: period.startSeconds)) \(String(describing: period.durationSeconds))")
        for adaptationSet in period.adaptationSets {
            _ = adaptationSet.contentProtections.map(\.defaultKID)
            for representation in adaptationSet.representations {
                lines.append("rep \(representation.id ?? "-") \(representation.bandwidth ?? 0) \(representation.contentType ?? "-")")
                do {
                    let initialization = try representation.initializationRequest(manifestURL: manifestURL)
                    lines.append("init \(initialization?.url ?? "-") \(initialization?.byteRange?.description ?? "-")")
                    let requests = try representation.segmentRequests(manifestURL: manifestURL,
                                                                      in: DASHTimeRange(start: 0, end: 600), limits: limits)
                    precondition(requests.reduce(0) { count, _ in count + 1 } == requests.count, "count disagrees with iteration")
                    for request in requests.prefix(20) {
                        lines.append("seg \(request.url) \(request.byteRange?.description ?? "-") \(request.time)")
                    }
                } catch {
                    lines.append("error \(error.code)")
                }
            }
        }
    }
    return lines
}
