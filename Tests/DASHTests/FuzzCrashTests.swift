import DASH
import Foundation
import Testing

/// The inputs the DASH fuzz targets once failed on, kept in `Fuzz/<target>/crashes/`: each still
/// parses losslessly and rewrites with every request proxied.
@Suite struct FuzzCrashTests {
    static var crashInputs: [String] {
        let fuzz = Fixtures.repositoryRoot.appendingPathComponent("Fuzz")
        return ["FuzzDASHParse", "FuzzDASHRewrite", "FuzzMP4Sidx"].flatMap { target -> [String] in
            let names = (try? FileManager.default.contentsOfDirectory(
                atPath: fuzz.appendingPathComponent("\(target)/crashes").path)) ?? []
            return names.sorted().map { "\(target)/crashes/\($0)" }
        }
    }

    static func input(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("Fuzz/\(path)")))
    }

    @Test func theKeptCrashInputsAreFound() {
        #expect(Self.crashInputs.contains("FuzzDASHRewrite/crashes/implicit-media-served-through-query-form.mpd"))
    }

    /// FuzzDASHRewrite's property, for both ways of serving the MPD.
    @Test(arguments: crashInputs.filter { $0.hasSuffix(".mpd") })
    func crashInputRewritesWithEveryRequestProxied(_ path: String) throws {
        let bytes = try Self.input(path)
        let manifest = try DASHManifest(parsing: bytes)
        #expect(manifest.formatted() == bytes)
        let pathForm = try #require(RewriterTests.endpoint.url(for: Fixtures.manifestURL.string).flatMap(DASHAbsoluteURL.init))
        let queryForm = try #require(DASHAbsoluteURL("http://127.0.0.1:8080/proxy?url=https%3A%2F%2Forigin.example%2Fvideo%2Fmanifest.mpd"))
        for served in [pathForm, queryForm] {
            var policy = RewriterTests.policy
            policy.servedManifestURL = served
            let rewritten = try DASHManifest(parsing: try manifest.rewritten(manifestURL: Fixtures.manifestURL, policy: policy))
            #expect(try RewriterTests.originRequests(of: rewritten, servedAt: served) == (try RewriterTests.requests(of: manifest)))
        }
    }

    /// The input FuzzDASHRewrite found: SegmentURLs without @media are the base URL itself, which
    /// was the served `/proxy?url=` URL when no BaseURL was there to rewrite.
    @Test func implicitReferencesServedThroughTheQueryFormGetAProxiedBaseURL() throws {
        let text = """
            <MPD profiles="x" minBufferTime="PT1S" mediaPresentationDuration="PT4S">
              <PatchLocation>p.mpp</PatchLocation>
              <Period><AdaptationSet><Representation id="a" bandwidth="1"><SegmentList duration="2">
                <SegmentURL mediaRange="0-99"/><SegmentURL media="b.m4s"/>
              </SegmentList></Representation></AdaptationSet></Period>
            </MPD>
            """
        let served = try #require(DASHAbsoluteURL("http://127.0.0.1:8080/proxy?url=x"))
        var policy = RewriterTests.policy
        policy.servedManifestURL = served
        let output = String(decoding: try DASHManifest(parsing: text).rewritten(manifestURL: Fixtures.manifestURL, policy: policy),
                            as: UTF8.self)
        #expect(output.hasPrefix("""
            <MPD profiles="x" minBufferTime="PT1S" mediaPresentationDuration="PT4S"><BaseURL>\
            http://127.0.0.1:8080/dash/https%3A%2F%2Forigin.example%2Fvideo%2F/manifest.mpd</BaseURL>
              <Period>
            """))
        let rewritten = try DASHManifest(parsing: output)
        #expect(try RewriterTests.originRequests(of: rewritten, servedAt: served)
                == [["https://origin.example/video/manifest.mpd", "https://origin.example/video/b.m4s"]])
    }
}
