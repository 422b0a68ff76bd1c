import Foundation
import Testing

/// What a newcomer reads must match what the proxy and the command do (issue 37's "Docs that do
/// not match"): every route in PROXY.md's table, POST /downloads' fields, fetch beside serve,
/// where the built binary is; and the README keeps its two commands.
@Suite("The newcomer's docs match the program")
struct NewcomerDocsTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func page(_ path: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
    }

    /// The rows of the table under `## Routes` in PROXY.md.
    static func routeRows() throws -> [String] {
        let text = try page("Docs/PROXY.md")
        let section = try #require(text.components(separatedBy: "\n## Routes\n").dropFirst().first?.components(separatedBy: "\n## ").first)
        return section.split(separator: "\n").filter { $0.hasPrefix("| ") }.map(String.init)
    }

    @Test("PROXY.md's routes table has a row for each route of the sessions and downloads APIs",
          arguments: ["POST /sessions", "GET /sessions", "DELETE /sessions/ID", "/sessions/ID/index.m3u8", "/sessions/ID/proxy?url=",
                      "POST /downloads", "GET /downloads", "DELETE /downloads/ID"])
    func routeRows(route: String) throws {
        let rows = try Self.routeRows()
        #expect(rows.contains { $0.split(separator: "|").first?.contains(route) == true }, "\(route)")
    }

    @Test("PROXY.md's table says that a POST without Content-Type: application/json is 415, not 405")
    func methodRow() throws {
        let row = try #require(try Self.routeRows().first { $0.hasPrefix("| other methods |") })
        #expect(row.contains("415"))
    }

    @Test("PROXY.md documents each field of POST /downloads", arguments: ["url", "variant", "allVariants", "pin", "headers"])
    func downloadFields(field: String) throws {
        let text = try Self.page("Docs/PROXY.md")
        let section = try #require(text.components(separatedBy: "## Downloads in the proxy: `POST /downloads`").dropFirst().first?
            .components(separatedBy: "\n## ").first)
        #expect(section.contains("| `\"\(field)\"` |"), "\(field)")
    }

    @Test("PROXY.md says fetch runs beside serve, handing the download over")
    func fetchBesideServe() throws {
        let text = try Self.page("Docs/PROXY.md")
        #expect(!text.contains("run `fetch` while no `serve` uses the same cache directory"))
        #expect(text.contains("So `fetch` runs beside `serve`."))
    }

    @Test("README and PLAYERS.md say where the built sparsecache is and how to put it on PATH", arguments: ["README.md", "Docs/PLAYERS.md"])
    func binaryLocation(path: String) throws {
        let text = try Self.page(path)
        #expect(text.contains(".build/release/sparsecache") && text.contains("PATH"), "\(path)")
    }

    @Test("The README keeps exactly its two commands: serve and test")
    func readmeCommands() throws {
        let blocks = try Self.page("README.md").components(separatedBy: "```").enumerated().filter { $0.offset % 2 == 1 }
            .map { $0.element.trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(blocks == ["./scripts/serve.sh", "./scripts/test.sh"])
    }
}
