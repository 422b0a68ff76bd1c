import Foundation
import HLS
import Testing
import TestSupport

/// The `sparsecache hls` contract, run against the executable the test run built (see
/// `CommandLineTool.executable`); a missing executable fails these tests.
@Suite(.timeLimit(.minutes(2))) struct CommandLineTests {
    static var executable: String { CommandLineTool.executable.path }

    struct Result {
        var status: Int32
        var output: Data
        var error: String
    }

    static func run(_ arguments: String...) throws -> Result {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw CommandLineTool.Missing(description: "sparsecache is not built at \(executable)")
        }
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: outputData,
                      error: String(decoding: errorData, as: UTF8.self))
    }

    static func fixture(_ name: String) -> String { TestFiles.fixtures.appendingPathComponent(name).path }

    @Test
    func parsePrintsTheModelAsJSON() throws {
        let result = try Self.run("hls", "parse", Self.fixture("ffmpeg/single-file-fmp4.m3u8"), "--base",
                                  "https://o.example/v/index.m3u8", "--json")
        #expect(result.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: result.output) as? [String: Any])
        #expect(json["type"] as? String == "media")
        #expect(json["targetDuration"] as? Int == 2)
        #expect(json["playlistType"] as? String == "VOD")
        let segments = try #require(json["segments"] as? [[String: Any]])
        #expect(segments.count == 6)
        #expect(segments[0]["uri"] as? String == "https://o.example/v/single_fmp4.m4s")
        let range = try #require(segments[1]["byteRange"] as? [String: Any])
        #expect(range["offset"] as? Int == 10908)
        let map = try #require(segments[0]["map"] as? [String: Any])
        #expect((map["byteRange"] as? [String: Any])?["length"] as? Int == 828)
        #expect((json["warnings"] as? [Any])?.isEmpty == true)
    }

    @Test
    func parseOfAMultivariantPlaylistListsVariantsAndMedia() throws {
        let result = try Self.run("hls", "parse", Self.fixture("handwritten/master-alternatives.m3u8"), "--json")
        let json = try #require(try JSONSerialization.jsonObject(with: result.output) as? [String: Any])
        #expect(json["type"] as? String == "master")
        let variants = try #require(json["variants"] as? [[String: Any]])
        #expect(variants.map { $0["resolution"] as? String } == ["640x360", "1280x720", "1920x1080"])
        #expect(variants[0]["video"] is NSNull)
        #expect((json["media"] as? [[String: Any]])?.first?["groupId"] as? String == "aac")
        #expect((json["iFrameVariants"] as? [Any])?.count == 2)
        #expect((json["sessionKeys"] as? [[String: Any]])?.first?["method"] as? String == "SAMPLE-AES")
    }

    @Test
    func strictParseFailsWithTheLineOnStandardError() throws {
        let result = try Self.run("hls", "parse", Self.fixture("handwritten/malformed-orphans.m3u8"), "--strict", "--json")
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(result.error.contains("line 3:"))
        let lenient = try Self.run("hls", "parse", Self.fixture("handwritten/malformed-orphans.m3u8"), "--json")
        #expect(lenient.status == 0)
    }

    @Test
    func inputThatIsNotAPlaylistExitsOne() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-playlist-\(getpid()).txt")
        try Data("<html>hello</html>\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try Self.run("hls", "parse", file.path, "--json")
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("sparsecache: "))
    }

    @Test
    func formatIsByteIdenticalAndCanonicalNormalizes() throws {
        let path = Self.fixture("handwritten/malformed-bom-crlf-no-final-newline.m3u8")
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(try Self.run("hls", "format", path).output == original)
        let canonical = try Self.run("hls", "format", path, "--canonical").output
        #expect(!canonical.contains(0x0D))
        #expect(canonical.first == UInt8(ascii: "#"))
        #expect(canonical.last == 0x0A)
    }

    @Test
    func rewriteRoutesThroughTheProxyWithHeadSegmentsAndBandwidthCap() throws {
        let media = try Self.run("hls", "rewrite", Self.fixture("ffmpeg/fmp4.m3u8"), "--base", "https://o.example/v/index.m3u8",
                                 "--proxy", "http://127.0.0.1:9000", "--head-segments", "1")
        let text = String(decoding: media.output, as: UTF8.self)
        #expect(text.contains("#EXT-X-MAP:URI=\"http://127.0.0.1:9000/proxy?url=https%3A%2F%2Fo.example%2Fv%2Finit.mp4\""))
        #expect(text.contains("\nhttp://127.0.0.1:9000/proxy?url=https%3A%2F%2Fo.example%2Fv%2Ffmp4_000.m4s\n"))
        #expect(text.contains("\nhttps://o.example/v/fmp4_001.m4s\n"))
        let master = try Self.run("hls", "rewrite", Self.fixture("handwritten/master-alternatives.m3u8"), "--base",
                                  "https://o.example/m.m3u8", "--proxy", "http://127.0.0.1:9000", "--max-bandwidth", "1000000")
        let rewritten = try HLSPlaylist(parsing: [UInt8](master.output))
        #expect(rewritten.variants.map(\.bandwidth) == [800_000])
    }

    @Test
    func lintListsViolationsAndExitsOneOnlyWhenThereAreSome() throws {
        let broken = try Self.run("hls", "lint", Self.fixture("handwritten/malformed-orphans.m3u8"))
        #expect(broken.status == 1)
        let lines = String(decoding: broken.output, as: UTF8.self).split(separator: "\n")
        #expect(lines.count >= 6)
        #expect(lines.allSatisfy { $0.contains("malformed-orphans.m3u8:") })
        let cleanFile = Self.fixture("ffmpeg/ts.m3u8")
        let clean = try Self.run("hls", "lint", cleanFile)
        #expect(clean.status == 0)
        #expect(String(decoding: clean.output, as: UTF8.self) == "\(cleanFile): no findings\n", "says so, since issue 37")
    }

    @Test
    func benchPrintsThroughputForEachOperation() throws {
        let result = try Self.run("hls", "bench", Self.fixture("ffmpeg/ts.m3u8"), "--iterations", "2")
        #expect(result.status == 0)
        let text = String(decoding: result.output, as: UTF8.self)
        for operation in ["parse", "format", "canonical", "rewrite"] {
            #expect(text.contains("\n\(operation) ") && text.contains("MB/s"), "\(operation)")
        }
        // What the parse found, for scripts/bench-hls.sh to check against what it generated.
        #expect(text.contains("\ncounts segments=6 variants=0 "))
        #expect(text.contains(" warnings=0\n"))
        let one = try Self.run("hls", "bench", Self.fixture("ffmpeg/ts.m3u8"), "--operation", "parse", "--rounds", "1")
        let oneText = String(decoding: one.output, as: UTF8.self)
        #expect(one.status == 0 && oneText.contains("\nparse ") && !oneText.contains("\nrewrite "))
    }

    @Test
    func benchKeepsTimingRoundsForTheMinimumSeconds() throws {
        let clock = ContinuousClock()
        let started = clock.now
        let result = try Self.run("hls", "bench", Self.fixture("ffmpeg/ts.m3u8"), "--operation", "parse", "--rounds", "1",
                                  "--iterations", "1", "--minimum-seconds", "0.5")
        // A lower bound only: one round of a six-segment playlist takes microseconds.
        #expect(clock.now - started >= .milliseconds(500))
        #expect(result.status == 0 && String(decoding: result.output, as: UTF8.self).contains("\nparse "))
        let negative = try Self.run("hls", "bench", Self.fixture("ffmpeg/ts.m3u8"), "--minimum-seconds", "-1")
        #expect(negative.status != 0)
    }
}
