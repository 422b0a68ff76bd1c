@testable import HLS
import Testing

/// The one-pass split of attribute lists (bit masks of quotes and separators, 64 bytes at a
/// time) records exactly what the careful scanner records, or leaves the list to it; and the
/// mask arithmetic it rests on equals a byte loop.
@Suite struct AttributeListSplitTests {
    typealias Random = ByteScanningTests.Random

    @Test func vectorMaskBitsAreThePortableWordArithmetic() {
        var random = Random(state: 11)
        for _ in 0..<2_000 {
            let lanes = SIMD16<Int8>((0..<16).map { _ in Bool.random(using: &random) ? -1 : 0 })
            let mask = lanes .== SIMD16<Int8>(repeating: -1)
            let expected = (0..<16).reduce(UInt64(0)) { $0 | (mask[$1] ? 1 << UInt64($1) : 0) }
            #expect(VectorMask.bits(mask) == expected)
            #expect(VectorMask.portableBits(mask) == expected)
        }
    }

    @Test func chunkMasksAreWhatAByteLoopFinds() {
        var random = Random(state: 12)
        let common = Array("A=\",=\" ,x\"\t\u{1}".utf8)
        for _ in 0..<500 {
            let bytes = ByteScanningTests.bytes(Int.random(in: 1..<200, using: &random), from: common, random: &random)
            let start = Int.random(in: 0..<bytes.count, using: &random)
            let end = Int.random(in: start...bytes.count, using: &random)
            // The whole buffer is readable, or only up to `end`: the byte path near the input's end.
            let readableEnd = Bool.random(using: &random) ? bytes.count : end
            ByteScanningTests.withBytes(bytes) { base in
                var carry: UInt64 = 0
                var inside = false
                var chunkStart = start
                while chunkStart < end {
                    let chunk = AttributeListChunk(base, at: chunkStart, end: end, readableEnd: readableEnd)
                    let insideQuotes = chunk.insideQuotes(carry: &carry)
                    var quotes: UInt64 = 0, separators: UInt64 = 0, spaces: UInt64 = 0, expectedInside: UInt64 = 0
                    for index in chunkStart..<min(end, chunkStart + 64) {
                        let bit: UInt64 = 1 << UInt64(index - chunkStart)
                        if bytes[index] == ASCII.quote { quotes |= bit; inside.toggle() }
                        if bytes[index] == ASCII.comma || bytes[index] == ASCII.equals { separators |= bit }
                        if bytes[index] <= ASCII.space { spaces |= bit }
                        if inside { expectedInside |= bit }
                    }
                    #expect(chunk.quotes == quotes)
                    #expect(chunk.separators == separators)
                    #expect(chunk.spaces == spaces)
                    let kept: UInt64 = end - chunkStart >= 64 ? .max : (1 << UInt64(end - chunkStart)) - 1
                    #expect(insideQuotes & kept == expectedInside)
                    chunkStart += 64
                }
            }
        }
    }

    /// Attribute lists as packagers write them, then broken the ways the careful path exists for.
    static func attributeList(_ random: inout Random) -> [UInt8] {
        // Names and values as playlists have them, and now and then one the careful path is for.
        let names = ["BANDWIDTH", "CODECS", "RESOLUTION", "URI", "X-CUSTOM", "GROUP-ID", "AUDIO", "NAME",
                     "SUPPLEMENTAL-CODECS", "STABLE-RENDITION-ID", "A", "ALLOWED-CPC"]
        let values = ["1280000", "\"avc1.640028,mp4a.40.2\"", "1920x1080", "\"a=b,c\"", "YES", "\"\"", "0x1F",
                      "plain=with=equals", String(repeating: "v", count: 70), "\"" + String(repeating: "q,", count: 40) + "\""]
        let oddNames = ["bad name", "", " BANDWIDTH", "URI "]
        let oddValues = ["\"x\"y\"", "\"unterminated", " spaced", "spaced ", "\"", "", "\"a\" "]
        let count = Int.random(in: 1...12, using: &random)
        let text = (0..<count).map { _ in
            let name = Int.random(in: 0..<40, using: &random) == 0 ? oddNames.randomElement(using: &random)
                : names.randomElement(using: &random)
            let value = Int.random(in: 0..<30, using: &random) == 0 ? oddValues.randomElement(using: &random)
                : values.randomElement(using: &random)
            return (name ?? "") + "=" + (value ?? "")
        }.joined(separator: ",")
        var bytes = Array(text.utf8)
        if Bool.random(using: &random), !bytes.isEmpty {
            let index = Int.random(in: 0..<bytes.count, using: &random)
            let edits = Array(",=\" \t".utf8)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: bytes[index] = edits.randomElement(using: &random) ?? 0
            case 1: bytes.insert(edits.randomElement(using: &random) ?? 0, at: index)
            default: bytes.remove(at: index)
            }
        }
        return bytes
    }

    @Test func theOnePassSplitRecordsWhatTheScannerDoesOrLeavesTheList() {
        var random = Random(state: 13)
        var quick = 0
        var careful = 0
        for _ in 0..<4_000 {
            let list = Self.attributeList(&random)
            let bytes = Array("#EXT-X-STREAM-INF:".utf8) + list
            let span = ByteSpan(18, bytes.count)
            ByteScanningTests.withBytes(bytes) { base in
                var scanner = AttributeListScanner.Iterator(base, span)
                var expected: [AttributeRecord] = []
                var namesAreClean = true
                var seen = Set<AttributeName>()
                while let entry = scanner.next() {
                    let known = AttributeName.named(base, entry.name, in: AttributeName.table, readableEnd: bytes.count)
                    if let known, !seen.insert(known).inserted { namesAreClean = false }
                    if known == nil && !PlaylistParser.isAttributeName(base, entry.name) { namesAreClean = false }
                    expected.append(AttributeRecord(name: entry.name, value: entry.value, knownName: known,
                                                    isQuoted: entry.isQuoted, isUnterminated: entry.isUnterminated))
                }
                var parser = PlaylistParser(base: base, count: bytes.count, options: HLSParserOptions())
                guard let summary = parser.quickAttributeList(span) else {
                    #expect(parser.attributes.count == 0, "a list left to the scanner leaves nothing behind")
                    careful += 1
                    return
                }
                quick += 1
                #expect(scanner.problem == nil && namesAreClean, "\(String(decoding: list, as: UTF8.self))")
                let recorded = (0..<parser.attributes.count).map { parser.attributes[$0] }
                #expect(recorded.map(describe) == expected.map(describe), "\(String(decoding: list, as: UTF8.self))")
                let names = expected.compactMap(\.knownName).reduce(UInt64(0)) { $0 | $1.bit }
                let quoted = expected.filter(\.isQuoted).compactMap(\.knownName).reduce(UInt64(0)) { $0 | $1.bit }
                #expect(summary.names == names && summary.quotedNames == quoted)
            }
        }
        #expect(quick > 500 && careful > 500, "both paths are exercised (\(quick) quick, \(careful) careful)")
    }

    private func describe(_ record: AttributeRecord) -> String {
        "\(record.name.start)..<\(record.name.end)=\(record.value.start)..<\(record.value.end) "
            + "\(String(describing: record.knownName)) \(record.isQuoted) \(record.isUnterminated)"
    }

    @Test func aGroupDeclaredAfterItsVariantIsFoundAndAnUndeclaredOneIsReported() throws {
        let text = """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=1000,AUDIO="late"
            v1.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=2000,AUDIO="nowhere"
            v2.m3u8
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="late",NAME="en",URI="a.m3u8"

            """
        let playlist = try HLSPlaylist(parsing: text)
        #expect(playlist.warnings.map(\.line) == [4])
        #expect(playlist.warnings.first?.message.contains("AUDIO=\"nowhere\" names no EXT-X-MEDIA group") == true)
    }

    @Test func strictModeReportsTheFirstBadAttributeInTheListsOrder() {
        for (list, first) in [("RESOLUTION=wide,BANDWIDTH=x", "RESOLUTION"), ("BANDWIDTH=x,RESOLUTION=wide", "BANDWIDTH"),
                              ("CODECS=avc1,BANDWIDTH=1", "CODECS")] {
            let text = "#EXTM3U\n#EXT-X-STREAM-INF:\(list)\nv.m3u8\n"
            #expect {
                try HLSPlaylist(parsing: text, options: HLSParserOptions(mode: .strict))
            } throws: { error in
                (error as? HLSParseError)?.message.contains(first) == true
            }
        }
    }
}
