import DASH
import TestSupport

/// DASH presentations for the proxy's tests, served by a ``TestOrigin``: a SegmentTemplate one
/// (`$RepresentationID$`, `$Number%05d$`, relative to the MPD) and a SegmentBase one (one file
/// per Representation, its segments the byte ranges its `sidx` box lists).
enum DASHTestPresentation {
    static let mpdType = "application/dash+xml"
    static let segmentCount = 3
    static let segmentBytes = 40_000

    /// A SegmentTemplate MPD of a video and an audio Representation, 3 segments of 2 s each.
    static func templateMPD(type: String = "static", extraMPDContent: String = "") -> [UInt8] {
        let timing = type == "static"
            ? #"mediaPresentationDuration="PT6.0S""#
            : #"availabilityStartTime="2026-01-01T00:00:00Z" minimumUpdatePeriod="PT2S""#
        func representation(_ id: String, _ bandwidth: Int) -> String {
            """
                  <Representation id="\(id)" bandwidth="\(bandwidth)" codecs="avc1.f4000b">
                    <SegmentTemplate timescale="1000" duration="2000" initialization="init-$RepresentationID$.m4s" \
            media="chunk-$RepresentationID$-$Number%05d$.m4s" startNumber="1"/>
                  </Representation>
            """
        }
        return Array("""
            <?xml version="1.0" encoding="utf-8"?>
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-live:2011" type="\(type)" \
            \(timing) minBufferTime="PT2.0S">
            \(extraMPDContent)  <Period id="0" start="PT0.0S">
                <AdaptationSet id="0" contentType="video" mimeType="video/mp4">
            \(representation("v1", 200_000))
                </AdaptationSet>
                <AdaptationSet id="1" contentType="audio" mimeType="audio/mp4">
            \(representation("a1", 64_000))
                </AdaptationSet>
              </Period>
            </MPD>

            """.utf8)
    }

    /// The origin paths of the template presentation's init sections and segments under `directory`.
    static func templatePaths(_ directory: String) -> [String] {
        ["v1", "a1"].flatMap { id in
            ["\(directory)init-\(id).m4s"] + (1...segmentCount).map { "\(directory)chunk-\(id)-\(String(repeating: "0", count: 4))\($0).m4s" }
        }
    }

    /// Puts the template presentation at `directory` (ending in `/`) on `origin`; returns the
    /// MPD's path.
    @discardableResult
    static func serveTemplate(on origin: TestOrigin, at directory: String = "/v/", type: String = "static",
                              mpdPath: String = "manifest.mpd", contentType: String = mpdType) -> String {
        origin.set(directory + mpdPath, .init(templateMPD(type: type), contentType: contentType))
        for (index, path) in templatePaths(directory).enumerated() {
            origin.set(path, .init(TestBytes(seed: UInt64(index + 1)).bytes(0, segmentBytes), contentType: "video/mp4"))
        }
        return directory + mpdPath
    }

    /// The SegmentBase file: 1000 bytes of init section, a `sidx` box listing 3 subsegments, then
    /// the subsegments.
    static let initLength = 1000
    static var segmentBaseFile: [UInt8] {
        TestBytes(seed: 77).bytes(0, initLength) + sidx + TestBytes(seed: 78).bytes(0, segmentCount * segmentBytes)
    }

    /// A version 0 `sidx` box of 3 references of ``segmentBytes`` bytes and 2 s each.
    static var sidx: [UInt8] {
        func be32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
        var body = be32(0) + be32(1) + be32(1000) + be32(0) + be32(0) + [0, 0, 0, UInt8(segmentCount)]
        for _ in 0..<segmentCount {
            body += be32(UInt32(segmentBytes)) + be32(2000) + be32(0x9000_0000)
        }
        return be32(UInt32(8 + body.count)) + Array("sidx".utf8) + body
    }

    static var segmentBaseMPD: [UInt8] {
        let indexEnd = initLength + sidx.count - 1
        return Array("""
            <?xml version="1.0" encoding="utf-8"?>
            <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011" type="static" \
            mediaPresentationDuration="PT6.0S" minBufferTime="PT2.0S">
              <Period id="0">
                <AdaptationSet id="0" contentType="video" mimeType="video/mp4">
                  <Representation id="0" bandwidth="100000" codecs="avc1.f4000b">
                    <BaseURL>stream.mp4</BaseURL>
                    <SegmentBase indexRange="\(initLength)-\(indexEnd)"><Initialization range="0-\(initLength - 1)"/></SegmentBase>
                  </Representation>
                </AdaptationSet>
              </Period>
            </MPD>

            """.utf8)
    }

    /// A two-Period ladder of two video Representations (`low` 300 kbit/s 360p, `high` 900 kbit/s
    /// 720p), each Period under its own `BaseURL`: the first addressed by a SegmentTimeline and
    /// `$Time$`, the second by `@duration` and `$Number$`; 2 segments of 2 s per Period.
    static let ladderMPD = Array("""
        <?xml version="1.0" encoding="utf-8"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-live:2011" type="static" \
        mediaPresentationDuration="PT8S" minBufferTime="PT2S">
          <Period id="p1" start="PT0S" duration="PT4S">
            <BaseURL>p1/</BaseURL>
            <AdaptationSet id="0" contentType="video" mimeType="video/mp4" codecs="avc1.f4000b">
              <SegmentTemplate timescale="1000" initialization="$RepresentationID$/init.m4s" media="$RepresentationID$/t$Time$.m4s">
                <SegmentTimeline><S t="0" d="2000" r="1"/></SegmentTimeline>
              </SegmentTemplate>
              <Representation id="low" bandwidth="300000" width="640" height="360"/>
              <Representation id="high" bandwidth="900000" width="1280" height="720"/>
            </AdaptationSet>
          </Period>
          <Period id="p2" start="PT4S">
            <BaseURL>p2/</BaseURL>
            <AdaptationSet id="0" contentType="video" mimeType="video/mp4" codecs="avc1.f4000b">
              <SegmentTemplate timescale="1000" duration="2000" startNumber="1" initialization="$RepresentationID$/init.m4s" \
        media="$RepresentationID$/n$Number$.m4s"/>
              <Representation id="low" bandwidth="300000" width="640" height="360"/>
              <Representation id="high" bandwidth="900000" width="1280" height="720"/>
            </AdaptationSet>
          </Period>
        </MPD>

        """.utf8)

    /// The ladder's init sections and segments of one Representation under `directory`.
    static func ladderPaths(_ directory: String, representation: String) -> [String] {
        ["p1/\(representation)/init.m4s", "p1/\(representation)/t0.m4s", "p1/\(representation)/t2000.m4s",
         "p2/\(representation)/init.m4s", "p2/\(representation)/n1.m4s", "p2/\(representation)/n2.m4s"].map { directory + $0 }
    }

    /// The bytes the ladder's origin serves at `path`.
    static func ladderBytes(_ path: String) -> [UInt8] {
        TestBytes(seed: UInt64(truncatingIfNeeded: path.utf8.reduce(5381) { ($0 &* 33) &+ Int($1) })).bytes(0, segmentBytes)
    }

    /// Puts the ladder at `directory` on `origin`; returns the MPD's path.
    @discardableResult
    static func serveLadder(on origin: TestOrigin, at directory: String = "/l/") -> String {
        origin.set(directory + "manifest.mpd", .init(ladderMPD, contentType: mpdType))
        for path in ["low", "high"].flatMap({ ladderPaths(directory, representation: $0) }) {
            origin.set(path, .init(ladderBytes(path), contentType: "video/mp4"))
        }
        return directory + "manifest.mpd"
    }

    /// Puts the SegmentBase presentation at `directory` on `origin`; returns the MPD's path.
    @discardableResult
    static func serveSegmentBase(on origin: TestOrigin, at directory: String = "/sb/") -> String {
        origin.set(directory + "manifest.mpd", .init(segmentBaseMPD, contentType: mpdType))
        origin.set(directory + "stream.mp4", .init(segmentBaseFile, contentType: "video/mp4"))
        return directory + "manifest.mpd"
    }
}
