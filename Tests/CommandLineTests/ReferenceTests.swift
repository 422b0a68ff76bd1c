import Foundation
import Testing
import TestSupport

/// `sparsecache url` and the reference page `Docs/CLI.md`, which must be what the command
/// definitions make.
@Suite("sparsecache url and the CLI reference", .timeLimit(.minutes(1)))
struct ReferenceTests {
    @Test("url percent-encodes the whole origin URL, query included", arguments: [
        (["https://cdn.example.com/master.m3u8?a=1&b=2"], "http://127.0.0.1:9000/proxy?url=https%3A%2F%2Fcdn.example.com%2Fmaster.m3u8%3Fa%3D1%26b%3D2"),
        (["http://o.example/v.mp4", "--port", "8080"], "http://127.0.0.1:8080/proxy?url=http%3A%2F%2Fo.example%2Fv.mp4"),
        (["http://o.example/~a/b%20c.ts", "--host", "::1", "--port", "1"], "http://[::1]:1/proxy?url=http%3A%2F%2Fo.example%2F~a%2Fb%2520c.ts"),
    ])
    func urlCommand(arguments: [String], expected: String) throws {
        let result = try CommandLineTool.run(["url"] + arguments)
        #expect(result.status == 0)
        #expect(result.outputText == expected + "\n")
    }

    @Test("url encodes the spaces and non-ASCII characters of a pasted URL as browsers and curl do, and leaves % as written", arguments: [
        // The origin then gets http://host/a%20b/x.m3u8?sig=1&e=2: the %20 itself is encoded in the url parameter.
        ("http://host/a b/x.m3u8?sig=1&e=2", "http://127.0.0.1:9000/proxy?url=http%3A%2F%2Fhost%2Fa%2520b%2Fx.m3u8%3Fsig%3D1%26e%3D2"),
        ("http://o.example/caf\u{E9}/x.ts?q=a b", "http://127.0.0.1:9000/proxy?url=http%3A%2F%2Fo.example%2Fcaf%25C3%25A9%2Fx.ts%3Fq%3Da%2520b"),
        ("http://o.example/\u{1F3AC} 1.ts", "http://127.0.0.1:9000/proxy?url=http%3A%2F%2Fo.example%2F%25F0%259F%258E%25AC%25201.ts"),
        ("http://o.example/a%20b.ts", "http://127.0.0.1:9000/proxy?url=http%3A%2F%2Fo.example%2Fa%2520b.ts"),
    ])
    func urlEncodesPastedURLs(url: String, expected: String) throws {
        let result = try CommandLineTool.run(["url", url])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputText == expected + "\n")
    }

    @Test("url refuses control characters, naming where", arguments: [
        ("http://o.example/a\tb.ts", "U+0009) at character 19"), ("http://o.example/a.ts\n", "U+000A) at character 22"),
        ("http://o.example/\u{7F}", "U+007F) at character 18"), ("http://o.example/\u{85}x", "U+0085) at character 18"),
    ])
    func urlRefusesControlCharacters(url: String, position: String) throws {
        let result = try CommandLineTool.run(["url", url])
        #expect(result.status == 2)
        #expect(result.standardError.contains("is not a URL the proxy fetches: it holds a control character (\(position)"), "\(result.standardError)")
        #expect(result.outputText.isEmpty)
    }

    @Test("url refuses what the proxy would not fetch", arguments: ["ftp://o.example/a", "cdn.example.com/a.m3u8", "http://user:pw@o.example/"])
    func urlRefusals(url: String) throws {
        let result = try CommandLineTool.run(["url", url])
        #expect(result.status == 2)
        #expect(result.standardError.contains("is not a URL the proxy fetches"))
    }

    @Test("Docs/CLI.md is what `sparsecache help-reference` makes from the command definitions")
    func referencePageMatchesTheDefinitions() throws {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Docs/CLI.md")
        let committed = try String(contentsOf: page, encoding: .utf8)
        let generated = try CommandLineTool.run(["help-reference"])
        #expect(generated.status == 0)
        #expect(generated.outputText == committed, "regenerate it: sparsecache help-reference > Docs/CLI.md")
        for command in ["serve", "fetch", "url", "ls", "stats", "inspect", "verify", "hls parse", "file read"] {
            #expect(committed.contains("## `sparsecache \(command)`"), "\(command)")
        }
        #expect(!committed.contains("## `sparsecache help-reference`"), "hidden commands stay hidden")
    }
}
