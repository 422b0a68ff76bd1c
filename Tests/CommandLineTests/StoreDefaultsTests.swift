import Foundation
import Testing
import TestSupport

/// Every store command works on the per-user cache directory `serve` uses unless given one,
/// as an operand or with `--cache-dir`.
@Suite("Store commands: one default directory, --cache-dir or an operand", .timeLimit(.minutes(1)))
struct StoreDefaultsTests {
    let home = TemporaryDirectory("cache-home")
    let origin = TestBytes(seed: 21)
    let key = "https://cdn.example/v.mp4"

    /// The tool with `XDG_CACHE_HOME` pointing into the test's directory.
    func run(_ arguments: [String], input: Data = Data()) throws -> CommandLineTool.Result {
        try CommandLineTool.run(arguments, input: input, environment: ["XDG_CACHE_HOME": home.path])
    }

    var defaultStore: String { home.file("sparsecache") }

    @Test("Without a directory, every store command uses the per-user cache directory")
    func everyStoreCommandDefaultsToThePerUserDirectory() throws {
        #expect(try run(["create", "--max-size", "2GiB"]).status == 0)
        #expect(try run(["put", key, "--offset", "0", "--total-length", "8000"], input: Data(origin.bytes(0, 5000))).status == 0)
        #expect(FileManager.default.fileExists(atPath: defaultStore + "/entries"))
        let get = try run(["get", key, "--range", "0-4999"])
        #expect(get.status == 0)
        #expect([UInt8](get.standardOutput) == origin.bytes(0, 5000))
        #expect(try run(["pin", key]).status == 0)
        let listed = try JSONSerialization.jsonObject(with: try run(["ls", "--json"]).standardOutput) as? [[String: Any]]
        #expect(listed?.first?["key"] as? String == key)
        #expect(listed?.first?["pinned"] as? Bool == true)
        let stats = try JSONSerialization.jsonObject(with: try run(["stats", "--json"]).standardOutput) as? [String: Any]
        #expect(stats?["entries"] as? Int == 1)
        #expect(stats?["maxSize"] as? Int == 2 << 30)
        #expect(try run(["inspect", key]).outputText.contains("key:            \(key)"))
        #expect(try run(["inspect"]).outputText.contains(key))
        #expect(try run(["verify"]).outputText.contains("ok       \(key)"))
        #expect(try run(["unpin", key]).status == 0)
        #expect(try run(["evict", "--to", "0"]).outputText.contains("evicted 1 entries"))
        #expect(try run(["put", key, "--offset", "0"], input: Data(origin.bytes(0, 100))).status == 0)
        #expect(try run(["rm", key]).status == 0)
        #expect(try run(["clear"]).status == 0)
        #expect(try run(["ls", "--json"]).outputText == "[]\n")
    }

    @Test("--cache-dir and the directory operand name the same store")
    func cacheDirectoryOptionAndOperandAgree() throws {
        let store = home.file("other")
        #expect(try run(["put", "--cache-dir", store, key, "--offset", "0"], input: Data(origin.bytes(0, 300))).status == 0)
        #expect(try run(["get", store, key, "--range", "0-299"]).standardOutput == Data(origin.bytes(0, 300)))
        #expect(try run(["get", "--cache-dir", store, key, "--range", "0-299"]).standardOutput == Data(origin.bytes(0, 300)))
        #expect(try run(["ls", store]).outputText == (try run(["ls", "--cache-dir", store]).outputText))
        #expect(try run(["stats", "--cache-dir", store, "--json"]).outputText.contains("\"entries\":1"))
        #expect(!FileManager.default.fileExists(atPath: defaultStore), "nothing went to the default store")
    }

    @Test("Two different directories, or the wrong number of operands, are usage errors", arguments: [
        ["ls", "a", "--cache-dir", "b"],
        ["get", "a", "k", "--cache-dir", "b", "--range", "0-1"],
        ["get", "--range", "0-1"],
        ["get", "a", "b", "c", "--range", "0-1"],
        ["pin"],
    ])
    func conflictingOrMissingOperandsAreUsageErrors(arguments: [String]) throws {
        let result = try run(arguments)
        #expect(result.status == 2)
        #expect(!result.standardError.isEmpty)
    }

    @Test("A store command on a directory that holds no store says so, once, with the directory")
    func aMissingStoreIsOneLine() throws {
        let result = try run(["ls", "--cache-dir", home.file("nothing-here")])
        #expect(result.status == 1)
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(result.standardError.contains(home.file("nothing-here")))
    }
}
