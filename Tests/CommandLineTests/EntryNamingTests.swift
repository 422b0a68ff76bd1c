import Foundation
import Testing
import TestSupport
@testable import SparseFile

/// `ls`, `inspect` and `verify` print paths that work as given and name store entries by
/// their URLs; `inspect` and `verify` take a store and a key as well as a file.
@Suite("Store entries named by URL, file paths that work as given", .timeLimit(.minutes(1)))
struct EntryNamingTests {
    let directory = TemporaryDirectory("entry-naming")
    let origin = TestBytes(seed: 34)
    var store: String { directory.file("store") }
    let first = "https://cdn.example/show/a.ts"
    let second = "https://cdn.example/show/b.ts"

    func fill() throws {
        #expect(try CommandLineTool.run(["put", store, first, "--offset", "0", "--total-length", "40000"],
                                        input: Data(origin.bytes(0, 20_000))).status == 0)
        #expect(try CommandLineTool.run(["put", store, second, "--offset", "0"], input: Data(origin.bytes(0, 3000))).status == 0)
    }

    func listed() throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: try CommandLineTool.run(["ls", store, "--json"]).standardOutput) as? [[String: Any]])
    }

    @Test("ls --json gives each entry's file as a path inspect and verify take as it is")
    func listedFilesWorkAsGiven() throws {
        try fill()
        for entry in try listed() {
            let file = try #require(entry["file"] as? String)
            #expect(file.hasPrefix(store + "/entries/"))
            #expect(FileManager.default.fileExists(atPath: file))
            let inspected = try CommandLineTool.run(["inspect", file])
            #expect(inspected.status == 0)
            #expect(inspected.outputText.contains("key:            \(entry["key"] as? String ?? "?")"))
            #expect(try CommandLineTool.run(["verify", file]).status == 0)
        }
    }

    @Test("inspect of a store lists its entries by URL with their coverage")
    func inspectingAStoreListsItsEntries() throws {
        try fill()
        let text = try CommandLineTool.run(["inspect", store])
        #expect(text.status == 0)
        #expect(!text.standardError.contains("Is a directory"))
        #expect(text.outputText.contains("2 entries"))
        let firstLine = try #require(text.outputText.split(separator: "\n").first { $0.hasSuffix(first) })
        #expect(firstLine.contains("█") && firstLine.contains("·"), "half of the first entry is cached")
        let json = try #require(try JSONSerialization.jsonObject(with: try CommandLineTool.run(["inspect", store, "--json"]).standardOutput) as? [String: Any])
        #expect(json["store"] as? String == store)
        #expect((json["entries"] as? [[String: Any]])?.compactMap { $0["key"] as? String }.sorted() == [first, second])
    }

    @Test("inspect takes a store and a key, or --cache-dir and a key", arguments: [true, false])
    func inspectTakesAStoreAndAKey(withOption: Bool) throws {
        try fill()
        let arguments = withOption ? ["inspect", "--cache-dir", store, first, "--json"] : ["inspect", store, first, "--json"]
        let result = try CommandLineTool.run(arguments)
        #expect(result.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
        #expect(json["key"] as? String == first)
        #expect(json["cachedBytes"] as? Int == 20_000)
        #expect((json["file"] as? String)?.hasPrefix(store + "/entries/") == true)
    }

    @Test("inspect of a key the store does not hold, or of a directory that is no store, says which")
    func inspectRefusals() throws {
        try fill()
        let missing = try CommandLineTool.run(["inspect", store, "https://cdn.example/none.ts"])
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("https://cdn.example/none.ts"))
        let plain = try CommandLineTool.run(["inspect", directory.path])
        #expect(plain.status == 2)
        #expect(plain.standardError.contains("not a store"))
        #expect(!plain.standardError.contains("Is a directory"))
    }

    @Test("verify names a store's entries by URL, a corrupt one with its file for repair")
    func verifyNamesEntriesByURL() throws {
        try fill()
        let sound = try CommandLineTool.run(["verify", store])
        #expect(sound.status == 0)
        #expect(sound.outputText.contains("ok       \(first) (20000 bytes verified)"))
        #expect(sound.outputText.contains("ok       \(second)"))
        #expect(!sound.outputText.contains(".scf"))
        let file = try #require(try listed().first { $0["key"] as? String == first }?["file"] as? String)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        bytes[Int(FileLayout.fileOffset(ofData: 9000))] ^= 0x10
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let corrupt = try CommandLineTool.run(["verify", store])
        #expect(corrupt.status == 4)
        #expect(corrupt.outputText.contains("CORRUPT  \(first): corrupt ranges 8192-12287 (file \(file))"))
        let one = try CommandLineTool.run(["verify", store, second])
        #expect(one.status == 0)
        #expect(one.outputText.contains(second) && !one.outputText.contains(first))
        #expect(try CommandLineTool.run(["verify", "--cache-dir", store, first]).status == 4)
    }

    @Test("The JSON keys --help lists are the keys ls, stats and inspect print", arguments: ["ls", "stats", "inspect"])
    func documentedJSONKeysMatchTheOutput(command: String) throws {
        try fill()
        let help = try CommandLineTool.run([command, "--help"]).outputText.replacingOccurrences(of: "\n", with: " ")
            .split(separator: " ").filter { !$0.isEmpty }.joined(separator: " ")
        let listing = try #require(help.range(of: "JSON keys (--json").map { help[$0.upperBound...] })
        let documented = Set(listing.drop { $0 != ":" }.dropFirst().prefix { $0 != "." && $0 != ";" }
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        let arguments = command == "inspect" ? [command, store, first, "--json"] : [command, store, "--json"]
        let output = try JSONSerialization.jsonObject(with: try CommandLineTool.run(arguments).standardOutput)
        let object = try #require((output as? [String: Any]) ?? (output as? [[String: Any]])?.first)
        #expect(Set(object.keys) == documented)
    }
}
