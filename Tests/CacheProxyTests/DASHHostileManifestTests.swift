import Testing
import TestSupport

@Suite("Hostile MPDs through the proxy: bounded, never a trap, never the origin's bytes", .timeLimit(.minutes(2)))
struct DASHHostileManifestTests {
    static let header = #"<?xml version="1.0"?>"#
    static let root = #"<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" xmlns:xlink="http://www.w3.org/1999/xlink" "#
        + #"profiles="urn:mpeg:dash:profile:isoff-live:2011" type="static" mediaPresentationDuration="PT6S" minBufferTime="PT2S">"#

    /// Refused MPDs and the error code their 502 names.
    static let refused: [(name: String, body: [UInt8], code: String)] = [
        ("billion laughs", Array((header + #"<!DOCTYPE MPD [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>"#
            + root + "<Period>&b;</Period></MPD>").utf8), "doctype"),
        ("external entity", Array((header + #"<!DOCTYPE MPD [<!ENTITY x SYSTEM "file:///etc/passwd">]>"# + root + "&x;</MPD>").utf8),
         "doctype"),
        ("undeclared entity", Array((header + root + "<Period>&loop;</Period></MPD>").utf8), "entity"),
        ("deep nesting", Array((header + root + String(repeating: "<a>", count: 100_000) + String(repeating: "</a>", count: 100_000)
            + "</MPD>").utf8), "limit-exceeded"),
        ("Latin-1 bytes", Array((header + root + "<Period id=\"").utf8) + [0xE9] + Array("\"/></MPD>".utf8), "encoding"),
        ("remote Period", Array((header + root + #"<Period xlink:href="http://evil.example/period.xml" xlink:actuate="onLoad"/></MPD>"#).utf8),
         "remote-element"),
        ("not an MPD", Array((header + "<html><body>hello</body></html>").utf8), "not-a-manifest"),
    ]

    @Test("Each hostile MPD is a 502 naming its error, and the proxy goes on serving", arguments: refused.indices)
    func refusedWithTheirError(_ index: Int) async throws {
        let hostile = Self.refused[index]
        try await ProxyHarness.run { harness in
            harness.origin.set("/h/manifest.mpd", .init(hostile.body, contentType: "application/dash+xml"))
            let response = try await harness.get("/h/manifest.mpd")
            let text = String(decoding: response.body, as: UTF8.self)
            #expect(response.status == 502, "\(hostile.name): \(response.status)")
            #expect(text.contains(hostile.code), "\(hostile.name): \(text)")
            #expect(!text.contains("<MPD"), "\(hostile.name): the origin's bytes were passed on")
            // Nothing was spent on it that a next request would find broken.
            DASHTestPresentation.serveTemplate(on: harness.origin)
            #expect(try await harness.get("/v/manifest.mpd").status == 200)
        }
    }

    @Test("A SegmentTimeline repeated 2^63-2 times is served at once, computing no segment list")
    func hugeRepeat() async throws {
        let body = Self.header + Self.root + """
            <Period><AdaptationSet mimeType="video/mp4"><Representation id="0" bandwidth="1">
            <SegmentTemplate timescale="1" media="s-$Time$.m4s" initialization="init.m4s"><SegmentTimeline>
            <S t="0" d="2" r="9223372036854775806"/></SegmentTimeline></SegmentTemplate></Representation></AdaptationSet></Period></MPD>
            """
        try await ProxyHarness.run { harness in
            harness.origin.set("/h/huge.mpd", .init(Array(body.utf8), contentType: "application/dash+xml"))
            let started = ContinuousClock.now
            let response = try await harness.get("/h/huge.mpd")
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self).contains(#"r="9223372036854775806""#))
            #expect(ContinuousClock.now - started < .seconds(10))
        }
    }

    @Test("An MPD over the manifest size limit is refused with 502 before it is parsed")
    func tooLarge() async throws {
        try await ProxyHarness.run(configure: { $0.limits.maximumPlaylistBytes = 1000 }) { harness in
            let padding = "<!--" + String(repeating: "x", count: 2000) + "-->"
            harness.origin.set("/h/big.mpd", .init(Array((Self.header + Self.root + padding + "</MPD>").utf8), contentType: "application/dash+xml"))
            let response = try await harness.get("/h/big.mpd")
            #expect(response.status == 502)
        }
    }
}
