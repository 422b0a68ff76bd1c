import Foundation
import Testing
import TestSupport
@testable import SparseFile

/// The file-level command line contract: names, flags, JSON keys and exit codes.
@Suite("sparsecache file commands")
struct CommandLineContractTests {
    let directory = TemporaryDirectory()
    let origin = TestBytes(seed: 5)

    func write(_ file: String, offset: UInt64, _ bytes: [UInt8], extra: [String] = []) throws -> CommandLineTool.Result {
        try CommandLineTool.run(["file", "write", file, "--offset", "\(offset)"] + extra, input: Data(bytes))
    }

    @Test func fileWriteThenReadReturnsExactlyTheBytes() throws {
        let file = directory.file("a")
        #expect(try write(file, offset: 100, origin.bytes(100, 5000), extra: ["--total-length", "10000", "--key", "K"]).status == 0)
        let read = try CommandLineTool.run(["file", "read", file, "--range", "100-5099"])
        #expect(read.status == 0)
        #expect([UInt8](read.standardOutput) == origin.bytes(100, 5000))
        let inner = try CommandLineTool.run(["file", "read", file, "--range", "200-200"])
        #expect([UInt8](inner.standardOutput) == origin.bytes(200, 1))
    }

    @Test func readingAMissingByteWritesNothingAndListsTheGapsWithExit3() throws {
        let file = directory.file("a")
        _ = try write(file, offset: 0, origin.bytes(0, 100))
        _ = try write(file, offset: 200, origin.bytes(200, 100))
        let read = try CommandLineTool.run(["file", "read", file, "--range", "0-399"])
        #expect(read.status == 3)
        #expect(read.standardOutput.isEmpty)
        #expect(read.standardError.contains("100-199"))
        #expect(read.standardError.contains("300-399"))
    }

    @Test func inspectJSONHasTheContractKeysWithMergedSortedRanges() throws {
        let file = directory.file("a")
        _ = try write(file, offset: 500, origin.bytes(500, 500), extra: ["--key", "https://o/v.mp4"])
        _ = try write(file, offset: 0, origin.bytes(0, 500))
        _ = try write(file, offset: 4000, origin.bytes(4000, 10))
        let result = try CommandLineTool.run(["inspect", file, "--json"])
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
        #expect(object["version"] as? Int == 1)
        #expect(object["key"] as? String == "https://o/v.mp4")
        #expect(object["contentLength"] is NSNull)
        #expect(object["cachedBytes"] as? Int == 1010)
        let ranges = try #require(object["ranges"] as? [[String: Int]])
        #expect(ranges == [["offset": 0, "length": 1000], ["offset": 4000, "length": 10]])
    }

    @Test func inspectShowsHeaderFieldsTableAndACoverageBar() throws {
        let file = directory.file("a")
        _ = try write(file, offset: 0, origin.bytes(0, 5000), extra: ["--total-length", "10000", "--key", "K"])
        let result = try CommandLineTool.run(["inspect", file])
        #expect(result.status == 0)
        for field in ["format version: 1", "key:            K", "content length: 10000", "generation:", "range table:", "coverage:"] {
            #expect(result.outputText.contains(field))
        }
        #expect(result.outputText.contains("█") && result.outputText.contains("·"))
    }

    @Test func verifyExitsZeroWhenSoundAndFourNamingTheBadRange() throws {
        let file = directory.file("a")
        _ = try write(file, offset: 0, origin.bytes(0, 20_000))
        #expect(try CommandLineTool.run(["verify", file]).status == 0)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        bytes[Int(FileLayout.fileOffset(ofData: 9000))] ^= 0x10
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let result = try CommandLineTool.run(["verify", file])
        #expect(result.status == 4)
        #expect(result.outputText.contains("8192-12287"))
        #expect(try CommandLineTool.run(["repair", file]).status == 0)
        #expect(try CommandLineTool.run(["verify", file]).status == 0)
        #expect(try CommandLineTool.run(["file", "read", file, "--range", "8192-8192"]).status == 3)
    }

    @Test func verifyOfANewFileWhoseOnlyWriteWasEmptyIsSound() throws {
        let file = directory.file("empty")
        #expect(try write(file, offset: 0, []).status == 0)
        let result = try CommandLineTool.run(["verify", file])
        #expect(result.status == 0)
        #expect(result.outputText.hasPrefix("ok"))
    }

    @Test func repairOfADamagedPartialLastBlockReportsWhatItDropped() throws {
        let file = directory.file("a")
        _ = try write(file, offset: 0, origin.bytes(0, 5000))
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
        bytes[Int(FileLayout.fileOffset(ofData: 4500))] ^= 0x10
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let repair = try CommandLineTool.run(["repair", file])
        #expect(repair.status == 0)
        #expect(repair.outputText == "\(file): repaired: dropped corrupt ranges 4096-4999\n")
        #expect(try CommandLineTool.run(["repair", file]).outputText == "\(file): sound, nothing to repair\n")
        #expect(try CommandLineTool.run(["verify", file]).status == 0)
        #expect(try CommandLineTool.run(["file", "read", file, "--range", "0-4095"]).standardOutput == Data(origin.bytes(0, 4096)))
    }

    @Test func verifySearchesDirectoriesAndReportsEveryFile() throws {
        _ = try write(directory.file("a"), offset: 0, [1, 2, 3])
        _ = try write(directory.file("b"), offset: 0, [4, 5, 6])
        try Data("not a cache file".utf8).write(to: URL(fileURLWithPath: directory.file("notes.txt")))
        let result = try CommandLineTool.run(["verify", directory.path])
        #expect(result.status == 0)
        #expect(result.outputText.contains("2 files checked"))
    }

    @Test func verifyOfAFileThatIsNotACacheFileExits2() throws {
        let path = directory.file("plain")
        try Data("hello".utf8).write(to: URL(fileURLWithPath: path))
        let result = try CommandLineTool.run(["verify", path])
        #expect(result.status == 2)
        #expect(result.standardError.contains("not a SparseCache file"))
    }

    @Test(arguments: [
        ["verify"],
        ["file", "read", "x", "--range", "9-1"],
        ["file", "read", "x", "--range", "abc"],
        ["file", "write", "x"],
        ["no-such-command"],
    ])
    func usageErrorsExit2(arguments: [String]) throws {
        let result = try CommandLineTool.run(arguments)
        #expect(result.status == 2)
    }

    @Test(arguments: [
        ["file", "read", "/nonexistent/file", "--range", "0-1"],
        ["inspect", "/nonexistent/file"],
        ["repair", "/nonexistent/file"],
    ])
    func otherFailuresPrintOneLineNamingTheFileWithoutAStackTrace(arguments: [String]) throws {
        let result = try CommandLineTool.run(arguments)
        #expect(result.status != 0)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(result.standardError.contains("/nonexistent/file"))
        #expect(!result.standardError.contains("Fatal") && !result.standardError.contains("0x0"))
    }

    @Test func aWriteWithAConflictingKeyIsRefused() throws {
        let file = directory.file("a")
        _ = try write(file, offset: 0, [1], extra: ["--key", "one"])
        let result = try write(file, offset: 1, [2], extra: ["--key", "two"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("key"))
    }
}
