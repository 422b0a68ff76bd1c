import AsyncHTTPClient
import DASH
import Testing

/// Plays a DASH presentation through the proxy as a player does: fetches the MPD, resolves every
/// request it names against the URL it fetched the MPD from, reads a SegmentBase Representation's
/// `sidx` to find its segments, and fetches init sections and segments (byte ranges with
/// `Range`). Every URL it requests must be the proxy's.
struct DASHTestPlayer {
    let harness: ProxyHarness
    /// Where every URL the player requests after the MPD must start: the proxy's path form, or a
    /// session's (`.../sessions/ID/dash/`).
    var pathFormPrefix: String?

    init(harness: ProxyHarness, pathFormPrefix: String? = nil) {
        self.harness = harness
        self.pathFormPrefix = pathFormPrefix
    }

    struct Play {
        /// The MPD as served.
        var manifest: [UInt8]
        /// The URL the MPD came from, after redirects: what its references resolve against.
        var manifestURL: String
        /// Every request made after the MPD's: URL, byte range, and the bytes received.
        var fetched: [(url: String, range: DASHByteRange?, body: [UInt8])]
    }

    /// Plays the MPD at `url` (a proxy URL) whole, following redirects as players do.
    func play(_ url: String) async throws -> Play {
        let response = try await harness.client.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
        var body: [UInt8] = []
        for try await chunk in response.body { body.append(contentsOf: chunk.readableBytesView) }
        try #require(response.status == .ok, "the MPD was answered \(response.status): \(String(decoding: body, as: UTF8.self))")
        #expect(response.headers.first(name: "content-type") == DASHTestPresentation.mpdType)
        let manifest = try DASHManifest(parsing: body)
        let manifestURL = try #require(response.url?.absoluteString)
        let served = try #require(DASHAbsoluteURL(manifestURL))
        var play = Play(manifest: body, manifestURL: manifestURL, fetched: [])
        for representation in manifest.representations {
            if let initialization = try representation.initializationRequest(manifestURL: served) {
                play.fetched.append(try await fetch(initialization))
            }
            var index: DASHSegmentIndex?
            if let indexRequest = representation.indexRequest(manifestURL: served) {
                let fetched = try await fetch(indexRequest)
                play.fetched.append(fetched)
                index = try DASHSegmentIndex(parsing: fetched.body, fileOffset: indexRequest.byteRange?.first ?? 0)
            }
            for request in try representation.segmentRequests(manifestURL: served, index: index) {
                play.fetched.append(try await fetch(request))
            }
        }
        return play
    }

    private func fetch(_ request: DASHSegmentRequest) async throws -> (url: String, range: DASHByteRange?, body: [UInt8]) {
        let proxyBase = pathFormPrefix ?? "http://127.0.0.1:\(harness.port)/dash/"
        try #require(request.url.hasPrefix(proxyBase), "\(request.url) does not go through the proxy's path form")
        let headers = request.byteRange.map { [("Range", $0.httpRangeHeaderValue)] } ?? []
        let response = try await harness.fetch(request.url, headers: headers)
        try #require(response.status == (request.byteRange == nil ? 200 : 206), "\(request.url) was answered \(response.status)")
        return (request.url, request.byteRange, response.body)
    }
}
