import DASH

private let manifestURL = DASHAbsoluteURL("https://origin.example/a/b/manifest.mpd?token=t")
private let endpoint = DASHProxyEndpoint(port: 8080)
/// A playback session's endpoint, under a path: its path form is `/sessions/s1/dash/...`.
private let sessionEndpoint = DASHProxyEndpoint(under: "http://127.0.0.1:8080/sessions/s1")
private let range = DASHTimeRange(start: 0, end: 120)

/// Rewrites parsed MPDs for the proxy, served at their path-form URL, through the query form, and
/// at a session's path form (an endpoint under a path).
/// The output must parse with the same Representations; every initialization and media request
/// of it, resolved as a player would, must be a proxy URL that maps back to the request the
/// original made on the origin; every template's identifiers must be intact.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDASHRewrite(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start, let manifestURL, let sessionEndpoint else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    var limits = DASHParserLimits()
    limits.maximumSegmentsPerRepresentation = 2_000
    guard let manifest = try? DASHManifest(parsing: bytes, options: DASHParserOptions(limits: limits)) else { return 0 }
    let pathForm = endpoint.url(for: manifestURL.string).flatMap(DASHAbsoluteURL.init)
    let queryForm = DASHAbsoluteURL("http://127.0.0.1:8080/proxy?url=https%3A%2F%2Forigin.example%2Fa%2Fb%2Fmanifest.mpd")
    let sessionForm = sessionEndpoint.url(for: manifestURL.string).flatMap(DASHAbsoluteURL.init)
    for (endpoint, served) in [(endpoint, pathForm), (endpoint, queryForm), (sessionEndpoint, sessionForm)] {
        guard let served else { preconditionFailure("no served URL") }
        let policy = DASHProxyRewritePolicy(endpoint: endpoint, servedManifestURL: served)
        guard let output = try? manifest.rewritten(manifestURL: manifestURL, policy: policy) else { continue }
        var relaxed = limits
        relaxed.maximumInputBytes = Int(Int32.max)
        relaxed.maximumValueBytes = Int(Int32.max)
        let rewritten: DASHManifest
        do {
            rewritten = try DASHManifest(parsing: output, options: DASHParserOptions(limits: relaxed))
        } catch {
            preconditionFailure("rewritten MPD does not parse: \(error)")
        }
        let before = manifest.representations
        let after = rewritten.representations
        precondition(before.map(\.summary) == after.map(\.summary), "rewriting changed the Representations")
        for (old, new) in zip(before, after) {
            precondition(templates(of: old) == templates(of: new), "rewriting changed a template's identifiers")
            compareRequests(old, new, served: served, endpoint: endpoint, limits: limits)
        }
    }
    return 0
}

/// The identifiers of the Representation's templates.
private func templates(of representation: DASHRepresentation) -> [[DASHURLTemplate.Identifier]] {
    guard case .template(let template) = representation.segmentInformation else { return [] }
    return [template.media, template.initialization, template.index].map { text in
        text.flatMap { try? DASHURLTemplate($0).identifiers } ?? []
    }
}

/// The original's requests on the origin and the rewritten one's through the proxy agree.
private func compareRequests(_ old: DASHRepresentation, _ new: DASHRepresentation, served: DASHAbsoluteURL,
                             endpoint: DASHProxyEndpoint, limits: DASHParserLimits) {
    guard let manifestURL else { return }
    let oldInitialization = try? old.initializationRequest(manifestURL: manifestURL)
    let newInitialization = try? new.initializationRequest(manifestURL: served)
    check(oldInitialization, newInitialization, endpoint: endpoint)
    guard let oldRequests = try? old.segmentRequests(manifestURL: manifestURL, in: range, limits: limits) else { return }
    guard let newRequests = try? new.segmentRequests(manifestURL: served, in: range, limits: limits) else {
        preconditionFailure("the rewritten Representation's segments cannot be listed")
    }
    precondition(oldRequests.count == newRequests.count, "rewriting changed the segment count")
    for (oldRequest, newRequest) in zip(oldRequests, newRequests) { check(oldRequest, newRequest, endpoint: endpoint) }
}

private func check(_ old: DASHSegmentRequest?, _ new: DASHSegmentRequest?, endpoint: DASHProxyEndpoint) {
    guard let old else { return }
    guard let new else { preconditionFailure("the rewritten MPD lost a request") }
    precondition(old.byteRange == new.byteRange && old.time == new.time, "rewriting changed a segment")
    guard DASHAbsoluteURL(old.url)?.isHTTP == true else {
        precondition(new.url == old.url, "a non-HTTP URL changed")
        return
    }
    guard let origin = endpoint.originURL(for: new.url) else { preconditionFailure("unproxied URL \(new.url)") }
    precondition(origin == DASHProxyEndpoint.normalized(old.url), "\(new.url) maps back to \(origin), not \(old.url)")
}
