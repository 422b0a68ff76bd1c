import Foundation
import Testing
import TestSupport

/// `get` and `file read` take ranges as an HTTP Range header does: the whole entry without
/// `--range`, `A-`, `-N`, a last position past the end cut at the end, and a range that starts
/// past the end refused with a message saying how long the entry is.
@Suite("get and file read: whole entries and HTTP ranges", .timeLimit(.minutes(1)))
struct WholeEntryTests {
    let directory = TemporaryDirectory("whole-entry")
    let origin = TestBytes(seed: 37)
    var store: String { directory.file("store") }
    let key = "https://cdn.example/show/v.mp4"

    /// An entry of 5000 bytes, all cached.
    func fill() throws {
        let put = try CommandLineTool.run(["put", store, key, "--offset", "0", "--total-length", "5000"], input: Data(origin.bytes(0, 5000)))
        try #require(put.status == 0, "put: \(put.standardError)")
    }

    @Test("get without --range prints the whole entry")
    func wholeEntry() throws {
        try fill()
        let get = try CommandLineTool.run(["get", store, key])
        #expect(get.status == 0, "\(get.standardError)")
        #expect([UInt8](get.standardOutput) == origin.bytes(0, 5000))
    }

    @Test("get takes A- and -N as HTTP does", arguments: [("--range=0-", 0, 5000), ("--range=4000-", 4000, 1000), ("--range=-300", 4700, 300),
                                                             ("--range=-9999", 0, 5000), ("--range=4990-6000", 4990, 10)])
    func openRanges(option: String, offset: Int, length: Int) throws {
        try fill()
        let get = try CommandLineTool.run(["get", store, key, option])
        #expect(get.status == 0, "\(option): \(get.standardError)")
        #expect([UInt8](get.standardOutput) == origin.bytes(UInt64(offset), length), "\(option)")
    }

    @Test("A range that starts past the end exits 3 saying how long the entry is, and prints nothing")
    func pastTheEnd() throws {
        try fill()
        let get = try CommandLineTool.run(["get", store, key, "--range", "6000-6999"])
        #expect(get.status == 3)
        #expect(get.standardOutput.isEmpty)
        #expect(get.standardError == "sparsecache: \(key): the range 6000-6999 is past the end: it is 5000 bytes long, 0-4999\n")
    }

    @Test("get of a key the store does not have says so and exits 3")
    func unknownKey() throws {
        try fill()
        let get = try CommandLineTool.run(["get", store, "https://cdn.example/other.ts"])
        #expect(get.status == 3)
        #expect(get.standardError.contains("not cached"))
    }

    @Test("A whole entry with a missing middle exits 3 naming the gap, and prints nothing")
    func missingMiddle() throws {
        let sparse = "https://cdn.example/sparse.ts"
        _ = try CommandLineTool.run(["put", store, sparse, "--offset", "0", "--total-length", "9000"], input: Data(origin.bytes(0, 3000)))
        _ = try CommandLineTool.run(["put", store, sparse, "--offset", "6000"], input: Data(origin.bytes(6000, 3000)))
        let get = try CommandLineTool.run(["get", store, sparse])
        #expect(get.status == 3)
        #expect(get.standardOutput.isEmpty)
        #expect(get.standardError.contains("missing 3000-5999"))
    }

    @Test("file read takes A- and -N, and says when a range starts past the end")
    func fileRead() throws {
        try fill()
        let entries = try #require(try JSONSerialization.jsonObject(with: try CommandLineTool.run(["ls", store, "--json"]).standardOutput) as? [[String: Any]])
        let file = try #require(entries.first?["file"] as? String)
        let tail = try CommandLineTool.run(["file", "read", file, "--range", "4500-"])
        #expect(tail.status == 0 && [UInt8](tail.standardOutput) == origin.bytes(4500, 500))
        let suffix = try CommandLineTool.run(["file", "read", file, "--range=-10"])
        #expect(suffix.status == 0 && [UInt8](suffix.standardOutput) == origin.bytes(4990, 10))
        let past = try CommandLineTool.run(["file", "read", file, "--range", "5000-5001"])
        #expect(past.status == 3 && past.standardError.contains("past the end: it is 5000 bytes long"))
    }

    @Test("Ranges that are not ranges are usage errors", arguments: ["-", "5-3", "a-b", "-0", "1-2-3"])
    func malformed(range: String) throws {
        try fill()
        #expect(try CommandLineTool.run(["get", store, key, "--range=\(range)"]).status == 2, "\(range)")
    }
}
