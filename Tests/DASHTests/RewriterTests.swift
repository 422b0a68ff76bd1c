import DASH
import Testing

/// The rewriter routes every URL a player requests through the proxy's path form, keeps every
/// other byte, refuses remote elements, and drops Representations as the policy says.
@Suite struct RewriterTests {
    static let endpoint = DASHProxyEndpoint(port: 8080)
    static let policy = DASHProxyRewritePolicy(endpoint: endpoint)

    /// Every request of every kept Representation, resolved as the player would against the
    /// rewritten MPD served at `served`, mapped back to its origin URL.
    static func originRequests(of manifest: DASHManifest, servedAt served: DASHAbsoluteURL) throws -> [[String]] {
        try manifest.representations.map { representation in
            let initialization = try representation.initializationRequest(manifestURL: served).map { [$0.url] } ?? []
            let media = try representation.segmentRequests(manifestURL: served, in: DASHTimeRange(start: 0, end: 60)).map(\.url)
            return try (initialization + media).map { url in
                try #require(endpoint.originURL(for: url), "not proxied: \(url)")
            }
        }
    }

    static func requests(of manifest: DASHManifest) throws -> [[String]] {
        try manifest.representations.map { representation in
            let initialization = try representation.initializationRequest(manifestURL: Fixtures.manifestURL).map { [$0.url] } ?? []
            let media = try representation.segmentRequests(manifestURL: Fixtures.manifestURL, in: DASHTimeRange(start: 0, end: 60))
            return (initialization + media.map(\.url)).map(DASHProxyEndpoint.normalized)
        }
    }

    @Test(arguments: ["ffmpeg/template-timeline.mpd", "ffmpeg/template-number.mpd", "ffmpeg/segment-list.mpd",
                      "ffmpeg/single-file.mpd", "ffmpeg/multi-period.mpd", "ffmpeg/live-dynamic.mpd"])
    func relativeFFmpegMPDServedAtItsPathFormNeedsNoChange(_ name: String) throws {
        let manifest = try Fixtures.manifest(name)
        let rewritten = try manifest.rewritten(manifestURL: Fixtures.manifestURL, policy: Self.policy)
        #expect(rewritten == manifest.bytes)
        let servedText = try #require(Self.endpoint.url(for: Fixtures.manifestURL.string))
        let served = try #require(DASHAbsoluteURL(servedText))
        #expect(served.string == "http://127.0.0.1:8080/dash/https%3A%2F%2Forigin.example%2Fvideo%2F/manifest.mpd")
        #expect(try Self.originRequests(of: manifest, servedAt: served) == (try Self.requests(of: manifest)))
    }

    @Test func anEndpointUnderAPathPutsItsPathBeforeThePathFormAndMapsBack() throws {
        let endpoint = try #require(DASHProxyEndpoint(under: "http://127.0.0.1:8080/sessions/s1/"))
        let origin = "https://cdn.example/v/$RepresentationID$/seg-$Number$.m4s?t=1"
        let url = try #require(endpoint.url(for: origin))
        #expect(url == "http://127.0.0.1:8080/sessions/s1/dash/https%3A%2F%2Fcdn.example%2Fv%2F/$RepresentationID$/seg-$Number$.m4s?t=1")
        #expect(endpoint.originURL(for: url) == origin)
        #expect(DASHProxyEndpoint(port: 8080).originURL(for: url) == nil)
        #expect(DASHProxyEndpoint(under: "http://h") == DASHProxyEndpoint("http://h"))
        for refused in ["http://h/a/../b", "http://h/a//b", "http://h/a%20b", "http://h/./a", "ftp://h/a", "http://h/a?x", "h/a"] {
            #expect(DASHProxyEndpoint(under: refused) == nil, "\(refused)")
        }
    }

    @Test func servedThroughTheQueryFormTheMPDGetsAProxiedBaseURLOfItsDirectoryAndKeepsItsTemplates() throws {
        let manifest = try Fixtures.manifest("ffmpeg/template-timeline.mpd")
        var policy = Self.policy
        let served = try #require(DASHAbsoluteURL("http://127.0.0.1:8080/proxy?url=https%3A%2F%2Forigin.example%2Fvideo%2Fmanifest.mpd"))
        policy.servedManifestURL = served
        let rewritten = try DASHManifest(parsing: try manifest.rewritten(manifestURL: Fixtures.manifestURL, policy: policy))
        // The directory: players that join BaseURLs by appending (ffmpeg) need one.
        #expect(rewritten.baseURLs.map(\.url) == ["http://127.0.0.1:8080/dash/https%3A%2F%2Forigin.example%2Fvideo%2F/"])
        #expect(rewritten.bytes.count == manifest.bytes.count + rewritten.baseURLs[0].url.utf8.count + "<BaseURL></BaseURL>".utf8.count)
        guard case .template(let template) = rewritten.representations[0].segmentInformation else {
            Issue.record("not a template")
            return
        }
        #expect(template.media == "chunk-stream$RepresentationID$-$Number%05d$.m4s")
        #expect(try Self.originRequests(of: rewritten, servedAt: served) == (try Self.requests(of: manifest)))
    }

    @Test(arguments: [
        ("a SegmentBase without a BaseURL", #"<SegmentBase indexRange="900-999"><Initialization range="0-899"/></SegmentBase>"#),
        ("a SegmentURL without @media", #"<SegmentList duration="2"><SegmentURL mediaRange="0-99"/></SegmentList>"#),
        ("no segment information", ""),
    ])
    func servedThroughTheQueryFormAnMPDNamingItselfImplicitlyGetsItsOwnPathForm(_ name: String, _ segmentInformation: String) throws {
        let manifest = try DASHManifest(parsing: """
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011" type="static" \
            mediaPresentationDuration="PT2S" minBufferTime="PT2S"><Period><AdaptationSet mimeType="video/mp4">\
            <Representation id="0" bandwidth="1">\(segmentInformation)</Representation></AdaptationSet></Period></MPD>
            """)
        var policy = Self.policy
        let served = try #require(DASHAbsoluteURL("http://127.0.0.1:8080/proxy?url=https%3A%2F%2Forigin.example%2Fvideo%2Fmanifest.mpd"))
        policy.servedManifestURL = served
        let rewritten = try DASHManifest(parsing: try manifest.rewritten(manifestURL: Fixtures.manifestURL, policy: policy))
        #expect(rewritten.baseURLs.map(\.url) == ["http://127.0.0.1:8080/dash/https%3A%2F%2Forigin.example%2Fvideo%2F/manifest.mpd"], "\(name)")
        // The requests a player makes (its SegmentBase's index aside, which needs the sidx) map back to the origin's.
        func requests(_ manifest: DASHManifest, at base: DASHAbsoluteURL) throws -> [String] {
            let representation = try #require(manifest.representations.first)
            var urls = [try representation.initializationRequest(manifestURL: base), representation.indexRequest(manifestURL: base)]
                .compactMap { $0?.url }
            if case .base? = representation.segmentInformation {} else {
                urls += try representation.segmentRequests(manifestURL: base).map(\.url)
            }
            return urls
        }
        let origin = try requests(manifest, at: Fixtures.manifestURL)
        #expect(!origin.isEmpty)
        #expect(try requests(rewritten, at: served).map { Self.endpoint.originURL(for: $0) } == origin, "\(name)")
    }

    @Test func absoluteAndClimbingReferencesAreRewrittenAndEverythingElseIsKept() throws {
        let manifest = try Fixtures.manifest("handwritten/cdn-base-urls.mpd")
        let bytes = try manifest.rewritten(manifestURL: Fixtures.manifestURL, policy: Self.policy)
        let text = String(decoding: bytes, as: UTF8.self)
        let rewritten = try DASHManifest(parsing: bytes)
        #expect(rewritten.baseURLs.map(\.url) == ["http://127.0.0.1:8080/dash/https%3A%2F%2Fcdn-a.example%2Fcontent%2F/"])
        #expect(rewritten.representations[1].baseURLs.map(\.url) == ["http://127.0.0.1:8080/dash/https%3A%2F%2Fcdn-b.example%2Fhd%2F/"])
        // Relative references below a proxied BaseURL stay as written.
        #expect(rewritten.representations[0].baseURLs.map(\.url) == ["sd/"])
        #expect(text.contains("<Location>http://127.0.0.1:8080/dash/https%3A%2F%2Forigin.example%2Fvideo%2F/manifest.mpd?refresh=1&amp;a=b</Location>"))
        // ContentProtection (license URL included) and UTCTiming are untouched; PatchLocation is gone.
        #expect(text.contains("<dashif:Laurl>https://license.example/widevine?x=1</dashif:Laurl>"))
        #expect(text.contains("value=\"https://time.example/now\""))
        #expect(!text.contains("<PatchLocation"))
        let served = try #require(Self.endpoint.url(for: Fixtures.manifestURL.string).flatMap(DASHAbsoluteURL.init))
        #expect(try Self.originRequests(of: rewritten, servedAt: served) == (try Self.requests(of: manifest)))
        // `../audio/` climbs out of the Period's BaseURL but stays inside the proxied MPD
        // BaseURL's prefix, so the player's resolution maps back right: kept as written.
        guard case .template(let audio) = rewritten.representations[3].segmentInformation else {
            Issue.record("not a template")
            return
        }
        #expect(audio.media == "../audio/$Time$.m4s")
    }

    @Test func aReferenceClimbingAboveTheProxiedPrefixIsMadeAbsolute() throws {
        let text = """
            <MPD profiles="x" minBufferTime="PT1S"><Period><AdaptationSet><Representation id="a" bandwidth="1">\
            <SegmentTemplate media="../../up/$Number$.m4s" duration="1"/></Representation></AdaptationSet></Period></MPD>
            """
        let rewritten = try DASHManifest(parsing: try DASHManifest(parsing: text).rewritten(manifestURL: Fixtures.manifestURL, policy: Self.policy))
        guard case .template(let template) = rewritten.representations[0].segmentInformation else {
            Issue.record("not a template")
            return
        }
        #expect(template.media == "http://127.0.0.1:8080/dash/https%3A%2F%2Forigin.example%2Fup%2F/$Number$.m4s")
    }

    @Test func onlyTheRewrittenValuesChange() throws {
        let original = try Fixtures.bytes("handwritten/cdn-base-urls.mpd")
        var policy = Self.policy
        policy.keepsPatchLocations = true
        let rewritten = try DASHManifest(parsing: original).rewritten(manifestURL: Fixtures.manifestURL, policy: policy)
        // Same lines, and the lines that differ are exactly the ones holding a rewritten URL.
        let before = String(decoding: original, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let after = String(decoding: rewritten, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(before.count == after.count)
        let changed = zip(before, after).enumerated().filter { $0.element.0 != $0.element.1 }.map { $0.offset + 1 }
        // Location, the MPD's BaseURL and the absolute Representation BaseURL; the relative
        // PatchLocation resolves through the served MPD's own path form.
        #expect(changed == [8, 10, 26])
    }

    @Test func remoteElementsAreRefusedWithThePositionOfTheirHref() throws {
        let manifest = try Fixtures.manifest("handwritten/remote-period.mpd")
        #expect(manifest.remoteElements.count == 2)
        #expect(manifest.periods.first?.remoteHref == "https://ads.example/period.xml")
        let error = #expect(throws: DASHRewriteError.self) {
            try manifest.rewritten(manifestURL: Fixtures.manifestURL, policy: Self.policy)
        }
        #expect(error?.code == .remoteElement)
        #expect(error?.position.line == 4)
        #expect(error?.position.column == 18)
    }

    @Test func resolveToZeroIsNotARemoteFetch() throws {
        let text = """
            <MPD xmlns:xlink="http://www.w3.org/1999/xlink" profiles="x" minBufferTime="PT1S">\
            <Period xlink:href="urn:mpeg:dash:resolve-to-zero:2013"/></MPD>
            """
        let manifest = try DASHManifest(parsing: text)
        #expect(try manifest.rewritten(manifestURL: Fixtures.manifestURL, policy: Self.policy) == manifest.bytes)
    }

    @Test func maximumBandwidthDropsRepresentationsWithTheirIndentation() throws {
        let manifest = try Fixtures.manifest("handwritten/cdn-base-urls.mpd")
        var policy = Self.policy
        policy.maximumBandwidth = 1_000_000
        let rewritten = try DASHManifest(parsing: try manifest.rewritten(manifestURL: Fixtures.manifestURL, policy: policy))
        #expect(rewritten.representations.map(\.id) == ["v480", "a128"])
        policy.maximumBandwidth = 1
        let lowest = try DASHManifest(parsing: try manifest.rewritten(manifestURL: Fixtures.manifestURL, policy: policy))
        // Every AdaptationSet keeps its lowest Representation rather than none.
        #expect(lowest.representations.map(\.id) == ["v480", "a128"])
        let text = String(decoding: lowest.bytes, as: UTF8.self)
        #expect(text.contains("</Representation>\n    </AdaptationSet>"))
    }

    @Test func lockKeepsOneRepresentationInItsAdaptationSetOnly() throws {
        let manifest = try Fixtures.manifest("handwritten/cdn-base-urls.mpd")
        var policy = Self.policy
        policy.lock(to: manifest.representations[1].summary)
        let rewritten = try DASHManifest(parsing: try manifest.rewritten(manifestURL: Fixtures.manifestURL, policy: policy))
        #expect(rewritten.representations.map(\.id) == ["v720", "a128"])
    }

    @Test func aTemplateWithAnIdentifierInItsHostCannotBeProxied() throws {
        let text = """
            <MPD profiles="x" minBufferTime="PT1S"><Period><AdaptationSet><Representation id="a" bandwidth="1">\
            <SegmentTemplate media="https://cdn$Number$.example/x.m4s" duration="1"/></Representation></AdaptationSet></Period></MPD>
            """
        #expect(throws: DASHRewriteError(code: .unproxiable, message: "", position: .whole)) {
            try DASHManifest(parsing: text).rewritten(manifestURL: Fixtures.manifestURL, policy: Self.policy)
        }
    }

    @Test func anInheritedClimbingReferenceWithDifferentBasesIsRefused() throws {
        let text = """
            <MPD profiles="x" minBufferTime="PT1S"><Period><AdaptationSet>\
            <SegmentTemplate media="/x/$Number$.m4s" duration="1"/>\
            <Representation id="a" bandwidth="1"><BaseURL>https://a.example/</BaseURL></Representation>\
            <Representation id="b" bandwidth="1"><BaseURL>https://b.example/</BaseURL></Representation>\
            </AdaptationSet></Period></MPD>
            """
        #expect(throws: DASHRewriteError(code: .ambiguousReference, message: "", position: .whole)) {
            try DASHManifest(parsing: text).rewritten(manifestURL: Fixtures.manifestURL, policy: Self.policy)
        }
    }

    @Test func endpointMapsPathFormsBackAndRefusesOthers() throws {
        let endpoint = Self.endpoint
        let url = "https://cdn.example/v/$RepresentationID$/seg-$Number%05d$.m4s?token=a%2Fb"
        let proxied = try #require(endpoint.url(for: url))
        #expect(proxied == "http://127.0.0.1:8080/dash/https%3A%2F%2Fcdn.example%2Fv%2F/$RepresentationID$/seg-$Number%05d$.m4s?token=a%2Fb")
        #expect(endpoint.originURL(for: proxied) == url)
        #expect(DASHProxyEndpoint.originURL(forRequestTarget: "/dash/https%3A%2F%2Fcdn.example%2Fv%2F/7/seg-00003.m4s")
                == "https://cdn.example/v/7/seg-00003.m4s")
        #expect(endpoint.url(for: "https://cdn.example") == "http://127.0.0.1:8080/dash/https%3A%2F%2Fcdn.example%2F/")
        for refused in ["/proxy?url=x", "/dash/ftp%3A%2F%2Fx%2F/a", "/dash/https%3A%2F%2Fx%2Fa/b", "/dash/https%3A%2F%2Fx%2F",
                        "/dash/https%3A%2F%2Fx%2F%zz/b", "/dash/https%3A%2F%2Fx%2F%0A/b"] {
            #expect(DASHProxyEndpoint.originURL(forRequestTarget: refused) == nil, "\(refused)")
        }
        #expect(endpoint.url(for: "file:///etc/passwd") == nil)
        #expect(DASHProxyEndpoint("http://127.0.0.1:8080/") != nil)
        #expect(DASHProxyEndpoint("http://127.0.0.1:8080/proxy") == nil)
        #expect(DASHProxyEndpoint("http://127.0.0.1:8080\"") == nil)
    }
}
