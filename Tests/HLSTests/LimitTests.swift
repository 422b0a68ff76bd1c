import HLS
import Testing

/// Every limit of HLSParserLimits is enforced with a typed error carrying its line.
@Suite struct LimitTests {
    static func limits(_ change: (inout HLSParserLimits) -> Void) -> HLSParserOptions {
        var options = HLSParserOptions()
        change(&options.limits)
        return options
    }

    static let cases: [(name: String, text: String, options: HLSParserOptions, line: Int)] = [
        ("input size", "#EXTM3U\n" + String(repeating: "#\n", count: 100), limits { $0.maximumInputBytes = 100 }, 0),
        ("line length", "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\n" + String(repeating: "a", count: 200) + "\n",
         limits { $0.maximumLineBytes = 100 }, 4),
        ("attributes per tag", "#EXTM3U\n#EXT-X-STREAM-INF:" + (0..<20).map { "X-A\($0)=1" }.joined(separator: ",") + "\nv\n",
         limits { $0.maximumAttributesPerTag = 10 }, 2),
        ("segments", "#EXTM3U\n#EXT-X-TARGETDURATION:6\n" + String(repeating: "#EXTINF:6,\ns.ts\n", count: 11),
         limits { $0.maximumSegments = 10 }, 24),
        ("list entries", "#EXTM3U\n" + String(repeating: "#EXT-X-STREAM-INF:BANDWIDTH=1\nv\n", count: 6),
         limits { $0.maximumEntriesPerList = 5 }, 12),
        ("keys in force", "#EXTM3U\n#EXT-X-VERSION:5\n#EXT-X-TARGETDURATION:6\n"
            + (0..<5).map { "#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"k\($0)\",KEYFORMAT=\"f\($0)\"\n" }.joined(),
         limits { $0.maximumKeysInForce = 4 }, 8),
        ("variables", "#EXTM3U\n#EXT-X-VERSION:8\n" + (0..<6).map { "#EXT-X-DEFINE:NAME=\"v\($0)\",VALUE=\"x\"\n" }.joined(),
         limits { $0.maximumVariables = 5 }, 8),
    ]

    @Test(arguments: cases)
    func exceedingALimitThrowsLimitExceededAtItsLine(_ example: (name: String, text: String, options: HLSParserOptions, line: Int)) {
        do throws(HLSParseError) {
            _ = try HLSPlaylist.parsed(example.text, options: example.options)
            Issue.record("\(example.name): no error")
        } catch {
            #expect(error.code == .limitExceeded, "\(example.name)")
            #expect(error.line == example.line, "\(example.name)")
        }
    }

    @Test func diagnosticsBeyondTheLimitAreDropped() throws {
        var options = HLSParserOptions()
        options.limits.maximumDiagnostics = 3
        let playlist = try HLSPlaylist.parsed("#EXTM3U\n" + String(repeating: "stray\n", count: 50), options: options)
        #expect(playlist.warnings.count == 3)
    }

    @Test func defaultsAdmitALongLivePlaylist() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n" + String(repeating: "#EXTINF:2.000,\nsegment.ts\n", count: 50_000)
        let playlist = try HLSPlaylist.parsed(text)
        #expect(playlist.segments.count == 50_000)
    }
}
