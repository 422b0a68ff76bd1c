import TestSupport

/// An HLS presentation a `TestOrigin` serves, written the way packagers write them: a
/// multivariant playlist with three variants (RESOLUTION, CODECS), an I-frame variant and,
/// optionally, an alternative audio rendition group, each a VOD media playlist of `.ts`
/// segments. Segment bytes are `TestBytes`, so a test can recompute any of them.
struct TestPresentation {
    struct Variant {
        var name: String
        var bandwidth: UInt64
        var resolution: String
    }

    static let variants = [
        Variant(name: "low", bandwidth: 800_000, resolution: "640x360"),
        Variant(name: "mid", bandwidth: 1_600_000, resolution: "1280x720"),
        Variant(name: "high", bandwidth: 4_000_000, resolution: "1920x1080"),
    ]

    let root: String
    let segments: Int
    let segmentSize: Int
    let duration: Double
    let hasAudio: Bool

    static let playlistType = "application/vnd.apple.mpegurl"

    /// Publishes the presentation under `/root/` and returns it.
    @discardableResult
    static func publish(
        _ root: String, on origin: TestOrigin, segments: Int = 10, segmentSize: Int = 20_000, duration: Double = 4,
        audio: Bool = false, faults: TestOrigin.Faults = .init()
    ) -> TestPresentation {
        let presentation = TestPresentation(root: root, segments: segments, segmentSize: segmentSize, duration: duration, hasAudio: audio)
        var master = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n"
        if audio {
            master += "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,AUTOSELECT=YES,URI=\"audio/index.m3u8\"\n"
        }
        for variant in variants {
            master += "#EXT-X-STREAM-INF:BANDWIDTH=\(variant.bandwidth),AVERAGE-BANDWIDTH=\(variant.bandwidth * 9 / 10),"
                + "RESOLUTION=\(variant.resolution),CODECS=\"avc1.4d401f,mp4a.40.2\"\(audio ? ",AUDIO=\"aud\"" : "")\n\(variant.name)/index.m3u8\n"
        }
        master += "#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=200000,RESOLUTION=640x360,URI=\"low/iframes.m3u8\"\n"
        origin.set("/\(root)/master.m3u8", .init(Array(master.utf8), contentType: playlistType))
        for (index, name) in (variants.map(\.name) + (audio ? ["audio"] : [])).enumerated() {
            origin.set("/\(root)/\(name)/index.m3u8", .init(Array(presentation.mediaPlaylist.utf8), contentType: playlistType))
            for segment in 0..<segments {
                origin.set("/\(root)/\(name)/s\(segment).ts",
                           .init(presentation.segmentBytes(variant: index, segment: segment), contentType: "video/mp2t", faults: faults))
            }
        }
        return presentation
    }

    var mediaPlaylist: String {
        var text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:\(Int(duration.rounded(.up)))\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n"
        for segment in 0..<segments { text += "#EXTINF:\(duration),\ns\(segment).ts\n" }
        return text + "#EXT-X-ENDLIST\n"
    }

    /// The bytes of a segment; `variant` indexes `variants`, then the audio rendition.
    func segmentBytes(variant: Int, segment: Int) -> [UInt8] {
        TestBytes(seed: UInt64(variant * 1000 + segment)).bytes(0, segmentSize)
    }

    func path(_ name: String, segment: Int) -> String { "/\(root)/\(name)/s\(segment).ts" }
    var masterPath: String { "/\(root)/master.m3u8" }
    func mediaPath(_ name: String) -> String { "/\(root)/\(name)/index.m3u8" }
}
