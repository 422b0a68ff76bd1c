import Foundation
import Testing
import TestSupport

/// A folder that is not a store is named as such by every command that reads a store, with
/// exit 2, as `inspect` does, instead of an empty table and exit 0.
@Suite("ls, stats, verify and get on a folder that is not a store", .timeLimit(.minutes(1)))
struct NotAStoreTests {
    let directory = TemporaryDirectory("not-a-store")

    @Test("Each says the folder is not a store, and exits 2", arguments: [["ls"], ["stats"], ["verify"], ["ls", "--json"], ["stats", "--json"]])
    func notAStore(command: [String]) throws {
        let folder = directory.file("videos")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: folder + "/notes.txt", contents: Data("not a cache file".utf8))
        let result = try CommandLineTool.run(command + [folder])
        #expect(result.status == 2, "\(command): \(result.outputText)")
        #expect(result.standardError.contains("\(folder) is a directory but not a store"), "\(command): \(result.standardError)")
        #expect(result.outputText.isEmpty, "no empty table: \(result.outputText)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/entries"), "nothing was made in it")
    }

    @Test("--cache-dir naming a folder that is not a store is refused the same way")
    func cacheDirOption() throws {
        let folder = directory.file("empty")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let result = try CommandLineTool.run(["ls", "--cache-dir", folder])
        #expect(result.status == 2 && result.standardError.contains("not a store"))
    }

    @Test("verify still searches a folder that holds cache files")
    func verifySearchesCacheFiles() throws {
        let store = directory.file("store")
        #expect(try CommandLineTool.run(["put", store, "k", "--offset", "0"], input: Data(TestBytes(seed: 3).bytes(0, 100))).status == 0)
        let result = try CommandLineTool.run(["verify", store + "/entries"])
        #expect(result.status == 0 && result.outputText.contains("ok"), "\(result.standardError)")
    }
}
