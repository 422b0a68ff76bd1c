import HLS
import Testing

/// Line endings, BOM, control characters and UTF-8: tolerated in lenient mode, reported, and
/// never a reason to lose a byte in lossless formatting.
@Suite struct EncodingTests {
    @Test func bomCRLFBlankLinesAndNoFinalNewlineAreTolerated() throws {
        let bytes = try TestFiles.fixture("handwritten/malformed-bom-crlf-no-final-newline.m3u8")
        let playlist = try HLSPlaylist(parsing: bytes)
        #expect(playlist.segments.map(\.uri) == ["seg0.ts", "seg1.ts"])
        #expect(playlist.endList)
        #expect(playlist.formatted() == bytes)
        #expect(Set(playlist.warnings.map(\.code)) == [.encoding, .whitespace])
        let canonical = String(decoding: playlist.canonicalFormatted(), as: UTF8.self)
        #expect(canonical.hasPrefix("#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6\n"))
        #expect(canonical.hasSuffix("#EXT-X-ENDLIST\n"))
        #expect(!canonical.contains("\r"))
    }

    @Test func bareCarriageReturnsEndLines() throws {
        let bytes = try TestFiles.fixture("handwritten/malformed-bare-cr.m3u8")
        let playlist = try HLSPlaylist(parsing: bytes)
        #expect(playlist.segments.count == 2)
        #expect(playlist.warnings.map(\.code) == [.encoding])
        #expect(playlist.warnings.first?.line == 1)
        #expect(playlist.formatted() == bytes)
    }

    @Test func nulAndInvalidUTF8AreReportedAndKept() throws {
        let bytes: [UInt8] = Array("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,title ".utf8) + [0xFF, 0xFE]
            + Array("\nseg".utf8) + [0] + Array("0.ts\n".utf8)
        let playlist = try HLSPlaylist(parsing: bytes)
        #expect(playlist.warnings.map(\.line) == [3, 4])
        #expect(playlist.warnings.allSatisfy { $0.code == .encoding })
        #expect(playlist.segments.first?.uri == "seg\u{0}0.ts")
        #expect(playlist.formatted() == bytes)
    }

    @Test(arguments: [[0xC2, 0x80] as [UInt8], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE0, 0x80, 0x80], [0xC0, 0xAF]])
    func c1ControlsSurrogatesOverlongsAndOutOfRangeScalarsAreEncodingErrors(_ sequence: [UInt8]) throws {
        let bytes = Array("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#".utf8) + sequence + Array("\n".utf8)
        let playlist = try HLSPlaylist(parsing: bytes)
        #expect(playlist.warnings.map(\.code) == [.encoding])
    }

    @Test func wellFormedUTF8IsAccepted() throws {
        let playlist = try HLSPlaylist.parsed("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,Ünïcødé 🎬 title\nséries/épisode.ts\n")
        #expect(playlist.warnings.isEmpty)
        #expect(playlist.segments.first?.title == "Ünïcødé 🎬 title")
        #expect(playlist.segments.first?.uri == "séries/épisode.ts")
    }

    @Test func looksLikePlaylistSniffsTheHeader() {
        #expect(HLSPlaylist.looksLikePlaylist(Array("#EXTM3U\n".utf8)))
        #expect(HLSPlaylist.looksLikePlaylist(Array("\u{FEFF}# comment\r\n\r\n#EXTM3U \r\n#EXTINF".utf8)))
        #expect(HLSPlaylist.looksLikePlaylist(Array("#EXTM3U".utf8)))
        #expect(!HLSPlaylist.looksLikePlaylist(Array("#EXT-X-VERSION:3\n#EXTM3U\n".utf8)))
        #expect(!HLSPlaylist.looksLikePlaylist([0x00, 0x00, 0x00, 0x20, 0x66, 0x74, 0x79, 0x70]))
        #expect(!HLSPlaylist.looksLikePlaylist([UInt8]()))
    }
}
