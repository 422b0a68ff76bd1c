import HLS
import Testing

/// A variant's AUDIO, VIDEO, SUBTITLES and CLOSED-CAPTIONS must name an EXT-X-MEDIA group of
/// that TYPE (RFC 8216 section 4.3.4.2): lenient mode reports each reference that names none,
/// on the variant's line, however many groups the playlist declares (the parser keeps them in a
/// small open-addressing table that grows).
@Suite struct GroupReferenceTests {
    /// A multivariant playlist with `groups` audio groups of three renditions each, and one
    /// variant per entry of `references`, naming that audio group.
    static func playlist(groups: Int, references: [String]) -> [UInt8] {
        var text = "#EXTM3U\n"
        for group in 0..<groups {
            for language in ["en", "fr", "de"] {
                text += "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"g\(group)\",NAME=\"\(language) \(group)\",LANGUAGE=\"\(language)\",URI=\"a\(group)\(language).m3u8\"\n"
            }
        }
        for (index, reference) in references.enumerated() {
            text += "#EXT-X-STREAM-INF:BANDWIDTH=\(1000 + index),AUDIO=\"\(reference)\"\nv\(index).m3u8\n"
        }
        return Array(text.utf8)
    }

    @Test(arguments: [1, 16, 17, 40])
    func everyDeclaredGroupIsFound(groups: Int) throws {
        let references = (0..<groups).reversed().map { "g\($0)" }
        let playlist = try HLSPlaylist(parsing: Self.playlist(groups: groups, references: references))
        #expect(playlist.warnings.isEmpty)
        #expect(playlist.variants.count == groups)
    }

    @Test(arguments: [1, 16, 17, 40])
    func aGroupNoRenditionDeclaresIsReportedOnTheVariantsLine(groups: Int) throws {
        let references = ["g0", "missing", "g\(groups - 1)", "G0"]
        let playlist = try HLSPlaylist(parsing: Self.playlist(groups: groups, references: references))
        let firstVariantLine = 3 * groups + 2
        #expect(playlist.warnings.map(\.line) == [firstVariantLine + 2, firstVariantLine + 6])
        #expect(playlist.warnings.allSatisfy { $0.code == .attribute && $0.message.contains("names no EXT-X-MEDIA group of TYPE=AUDIO") })
    }

    @Test func aGroupOfAnotherTypeIsNotFound() throws {
        let text = "#EXTM3U\n#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"g0\",NAME=\"s\",URI=\"s.m3u8\"\n"
            + "#EXT-X-STREAM-INF:BANDWIDTH=1,AUDIO=\"g0\"\nv.m3u8\n"
        let playlist = try HLSPlaylist(parsing: Array(text.utf8))
        #expect(playlist.warnings.map(\.line) == [3])
    }
}
