import Foundation
import HLS
import Testing

/// Choosing one variant for a quality, and the spellings of a quality.
@Suite struct SelectionTests {
    /// master-quality.m3u8: 0 = 1.2 Mb/s 480p, 1 = 600 kb/s 360p, 2 = 3 Mb/s 720p,
    /// 3 = 2 Mb/s 720p, 4 = 64 kb/s without RESOLUTION; an I-frame variant of 50 kb/s.
    static let playlist = try! HLSPlaylist(parsing: TestFiles.fixture("handwritten/master-quality.m3u8"))

    @Test(arguments: [
        (HLSQuality.lowest, nil, 4),
        (.highest, nil, 2),
        (.bandwidth(1_000_000), nil, 0),
        // 300 kb/s from both 600 kb/s and 1.2 Mb/s: the lower bandwidth wins.
        (.bandwidth(900_000), nil, 1),
        (.bandwidth(0), nil, 4),
        (.bandwidth(10_000_000), nil, 2),
        (.bandwidth(2_000_000), nil, 3),
        // Two 720p variants: the lower bandwidth wins.
        (.height(720), nil, 3),
        (.height(480), nil, 0),
        (.height(400), nil, 1),
        // 60 px from both 360p and 480p: the lower bandwidth wins.
        (.height(420), nil, 1),
        (.height(2160), nil, 3),
        // The variant without RESOLUTION ranks last even when its bandwidth is lowest.
        (.height(1), nil, 1),
        (.highest, 2_500_000, 3),
        (.height(720), 2_500_000, 3),
        (.height(720), 1_000_000, 1),
        (.highest, 1_000_000, 1),
        (.bandwidth(3_000_000), 3_000_000, 2),
        // A maximum below every variant leaves the lowest, whatever the quality.
        (.highest, 10_000, 4),
        (.height(720), 10_000, 4),
        (.bandwidth(3_000_000), 10_000, 4),
        (.lowest, 10_000, 4),
    ] as [(HLSQuality, UInt64?, Int)])
    func picksTheVariantAQualityNames(_ quality: HLSQuality, _ maximumBandwidth: UInt64?, _ expected: Int) throws {
        let chosen = try #require(Self.playlist.variant(for: quality, maximumBandwidth: maximumBandwidth))
        #expect(chosen.index == expected)
        #expect(!chosen.isIFrameOnly)
    }

    @Test func summariesCarryTheResolution() {
        #expect(Self.playlist.variantSummaries.map(\.resolution?.height) == [480, 360, 720, 720, nil, 360])
    }

    @Test func remainingTiesGoToTheVariantListedFirst() {
        let twins = [HLSVariantSummary(index: 0, bandwidth: 500, resolution: HLSResolution(width: 640, height: 360)),
                     HLSVariantSummary(index: 1, bandwidth: 500, resolution: HLSResolution(width: 640, height: 360))]
        for quality in [HLSQuality.lowest, .highest, .bandwidth(400), .height(360)] {
            #expect(quality.select(from: twins)?.index == 0, "\(quality)")
            #expect(quality.select(from: twins, maximumBandwidth: 1)?.index == 0, "\(quality)")
        }
    }

    @Test func withoutAnyResolutionAHeightTakesTheLowestBandwidth() {
        let variants = [HLSVariantSummary(index: 0, bandwidth: 900), HLSVariantSummary(index: 1, bandwidth: 300),
                        HLSVariantSummary(index: 2, bandwidth: 600)]
        #expect(HLSQuality.height(1080).select(from: variants)?.index == 1)
    }

    @Test func aVariantWithoutBandwidthCountsAsZero() {
        let variants = [HLSVariantSummary(index: 0, bandwidth: nil), HLSVariantSummary(index: 1, bandwidth: 100)]
        #expect(HLSQuality.lowest.select(from: variants)?.index == 0)
        #expect(HLSQuality.highest.select(from: variants)?.index == 1)
        #expect(HLSQuality.highest.select(from: variants, maximumBandwidth: 50)?.index == 0)
    }

    @Test func iFrameVariantsAreNeverChosen() throws {
        let iFramesOnly = [HLSVariantSummary(index: 0, bandwidth: 100, isIFrameOnly: true)]
        #expect(HLSQuality.lowest.select(from: iFramesOnly) == nil)
        #expect(HLSQuality.lowest.select(from: []) == nil)
        let media = try HLSPlaylist(parsing: TestFiles.fixture("ffmpeg/ts.m3u8"))
        #expect(media.variant(for: .highest) == nil)
    }

    @Test(arguments: [
        ("lowest", HLSQuality.lowest),
        ("highest", .highest),
        ("720p", .height(720)),
        ("1p", .height(1)),
        ("0720p", .height(720)),
        ("1000000p", .height(1_000_000)),
    ] as [(String, HLSQuality)])
    func parsesTheStringSpellings(_ text: String, _ expected: HLSQuality) {
        #expect(HLSQuality(jsonString: text) == expected)
    }

    @Test(arguments: ["", "p", "0p", "1000001p", "99999999p", "720P", " 720p", "720p ", "+720p", "-1p", "720",
                      "2500000", "Lowest", "LOWEST", "lowest ", "7 20p", "720pp", "１p"])
    func refusesOtherStrings(_ text: String) {
        #expect(HLSQuality(jsonString: text) == nil)
    }

    struct Body: Codable, Equatable {
        var quality: HLSQuality?
    }

    @Test(arguments: [
        (#"{"quality": "lowest"}"#, HLSQuality.lowest),
        (#"{"quality": "highest"}"#, .highest),
        (#"{"quality": "1080p"}"#, .height(1080)),
        (#"{"quality": 2500000}"#, .bandwidth(2_500_000)),
        (#"{"quality": 18446744073709551615}"#, .bandwidth(.max)),
    ] as [(String, HLSQuality)])
    func decodesFromJSON(_ json: String, _ expected: HLSQuality) throws {
        let body = try JSONDecoder().decode(Body.self, from: Data(json.utf8))
        #expect(body.quality == expected)
        let encoded = try JSONEncoder().encode(body)
        #expect(try JSONDecoder().decode(Body.self, from: encoded) == body)
    }

    @Test(arguments: [#"{"quality": 0}"#, #"{"quality": -5}"#, #"{"quality": 2.5}"#, #"{"quality": "720"}"#,
                      #"{"quality": true}"#, #"{"quality": ["lowest"]}"#, #"{"quality": "best"}"#])
    func refusesOtherJSON(_ json: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Body.self, from: Data(json.utf8)) }
    }

    @Test func encodesTheSpellingsItReads() throws {
        let encoded = try [HLSQuality.lowest, .highest, .bandwidth(42), .height(720)].map {
            String(decoding: try JSONEncoder().encode($0), as: UTF8.self)
        }
        #expect(encoded == [#""lowest""#, #""highest""#, "42", #""720p""#])
    }
}
