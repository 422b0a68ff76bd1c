import Foundation
import Testing
import TestSupport

/// `hls parse`, `lint`, `format` and `rewrite` read a file, `-` (standard input) or an http(s)
/// URL; `lint` says when there is nothing to say and lists findings in line order; `rewrite`
/// refuses a --proxy without a scheme and leaves no blank lines where it dropped variants.
@Suite("hls commands: stdin, URLs, lint's output, rewrite's checks", .timeLimit(.minutes(1)))
struct PlaylistInputTests {
    let directory = TemporaryDirectory("playlist-input")

    static let media = """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-TARGETDURATION:4
        #EXTINF:4.0,
        s0.ts
        #EXTINF:4.0,
        s1.ts
        #EXT-X-ENDLIST

        """

    /// ffmpeg writes a blank line after each variant of a multivariant playlist.
    static let multivariant = """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=320x180
        low/index.m3u8

        #EXT-X-STREAM-INF:BANDWIDTH=1200000,RESOLUTION=640x360
        mid/index.m3u8

        #EXT-X-STREAM-INF:BANDWIDTH=2500000,RESOLUTION=960x540
        high/index.m3u8

        """

    func write(_ text: String, _ name: String) throws -> String {
        let path = directory.file(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("hls parse, lint and format read standard input for -", arguments: [["hls", "parse", "-"], ["hls", "lint", "-"], ["hls", "format", "-"]])
    func standardInput(command: [String]) throws {
        let result = try CommandLineTool.run(command, input: Data(Self.media.utf8))
        #expect(result.status == 0, "\(command): \(result.standardError)")
        switch command[1] {
        case "parse": #expect(result.outputText.contains("\"s1.ts\""))
        case "lint": #expect(result.outputText == "(standard input): no findings\n")
        default: #expect(result.outputText == Self.media)
        }
    }

    @Test("hls parse and lint fetch an http URL; parse resolves URIs against it")
    func url() throws {
        let origin = try LocalHTTPOrigin(files: ["/show/index.m3u8": Array(Self.media.utf8)])
        let url = origin.url("/show/index.m3u8")
        let parsed = try CommandLineTool.run(["hls", "parse", url])
        #expect(parsed.status == 0, "\(parsed.standardError)")
        #expect(parsed.outputText.contains(origin.url("/show/s1.ts")), "resolved against the URL: \(parsed.outputText)")
        let linted = try CommandLineTool.run(["hls", "lint", url])
        #expect(linted.status == 0 && linted.outputText == "\(url): no findings\n", "\(linted.outputText)\(linted.standardError)")
        let missing = try CommandLineTool.run(["hls", "lint", origin.url("/gone.m3u8")])
        #expect(missing.status == 1 && missing.standardError == "sparsecache: cannot fetch \(origin.url("/gone.m3u8")): the origin answered 404\n")
    }

    @Test("hls lint of a playlist that breaks no rule says so and exits 0")
    func noFindings() throws {
        let path = try write(Self.media, "clean.m3u8")
        let result = try CommandLineTool.run(["hls", "lint", path])
        #expect(result.status == 0)
        #expect(result.outputText == "\(path): no findings\n")
    }

    @Test("hls lint lists its findings in line order")
    func findingsInLineOrder() throws {
        // A segment longer than the target duration (line 5), an EXTINF without a URI at the end
        // (line 9), and a version too low for a decimal duration... whichever rules the parser
        // reports late, the lines come out sorted.
        let broken = """
            #EXTM3U
            #EXT-X-TARGETDURATION:2
            #EXT-X-MEDIA-SEQUENCE:0
            #EXTINF:4.5,
            s0.ts
            #EXT-X-DISCONTINUITY-SEQUENCE:1
            #EXTINF:4.5,
            s1.ts
            #EXT-X-ENDLIST

            """
        let path = try write(broken, "broken.m3u8")
        let result = try CommandLineTool.run(["hls", "lint", path])
        #expect(result.status == 1)
        let lines = result.outputText.split(separator: "\n").compactMap { Int($0.split(separator: ":").dropFirst().first ?? "") }
        #expect(lines.count >= 2, "findings: \(result.outputText)")
        #expect(lines == lines.sorted(), "in line order: \(result.outputText)")
    }

    @Test("hls rewrite refuses a --proxy without a scheme, and shows it with one", arguments: ["127.0.0.1:19010", "localhost:9000/", "ftp://127.0.0.1:9000"])
    func proxyWithoutScheme(proxy: String) throws {
        let path = try write(Self.media, "index.m3u8")
        let result = try CommandLineTool.run(["hls", "rewrite", path, "--base", "https://cdn.example/show/index.m3u8", "--proxy", proxy])
        #expect(result.status == 1)
        #expect(result.outputText.isEmpty)
        #expect(result.standardError.contains("--proxy \(proxy) is not an http origin"), "\(result.standardError)")
    }

    @Test("hls rewrite --max-bandwidth leaves no blank lines where it dropped variants")
    func noBlankLinesWhereVariantsWere() throws {
        let path = try write(Self.multivariant, "master.m3u8")
        let result = try CommandLineTool.run(["hls", "rewrite", path, "--base", "https://cdn.example/show/master.m3u8",
                                              "--proxy", "http://127.0.0.1:9000", "--max-bandwidth", "500000"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(!result.outputText.contains("\n\n\n"), "a run of blank lines: \(result.outputText.debugDescription)")
        #expect(result.outputText.components(separatedBy: "#EXT-X-STREAM-INF").count == 2, "one variant kept")
        #expect(result.outputText.hasSuffix("low%2Findex.m3u8\n\n"), "the kept variant's own blank line stays: \(result.outputText.debugDescription)")
    }
}
