import Foundation
import Testing
import TestSupport
import CacheStore

/// The store command line contract: names, flags, JSON keys and exit codes.
@Suite("sparsecache store commands", .timeLimit(.minutes(2)))
struct StoreCommandTests {
    let directory = TemporaryDirectory("store-cli")
    let origin = TestBytes(seed: 8)
    var store: String { directory.file("store") }

    @Test func putThenGetReturnsTheBytesAndAMissIsExit3() throws {
        #expect(try CommandLineTool.run(["create", store, "--max-size", "500MB"]).status == 0)
        let put = try CommandLineTool.run(["put", store, "https://cdn.example/v.mp4", "--offset", "1000", "--total-length", "100000"],
                                          input: Data(origin.bytes(1000, 20_000)))
        #expect(put.status == 0)
        let get = try CommandLineTool.run(["get", store, "https://cdn.example/v.mp4", "--range", "1000-20999"])
        #expect(get.status == 0)
        #expect([UInt8](get.standardOutput) == origin.bytes(1000, 20_000))
        let miss = try CommandLineTool.run(["get", store, "https://cdn.example/v.mp4", "--range", "0-1999"])
        #expect(miss.status == 3)
        #expect(miss.standardOutput.isEmpty)
        #expect(miss.standardError.contains("0-999"))
    }

    @Test func lsJSONHasTheContractKeys() throws {
        _ = try CommandLineTool.run(["put", store, "k", "--offset", "0"], input: Data(origin.bytes(0, 5000)))
        _ = try CommandLineTool.run(["pin", store, "k"])
        let result = try CommandLineTool.run(["ls", store, "--json"])
        #expect(result.status == 0)
        let entries = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [[String: Any]])
        let entry = try #require(entries.first)
        #expect(entry["key"] as? String == "k")
        #expect(entry["cachedBytes"] as? Int == 5000)
        #expect(entry["contentLength"] is NSNull)
        #expect((entry["diskBytes"] as? Int ?? 0) >= 5000)
        #expect((entry["lastAccess"] as? String)?.hasSuffix("Z") == true)
        #expect(entry["pinned"] as? Bool == true)
        #expect(entry["expires"] is NSNull)
        #expect(try CommandLineTool.run(["unpin", store, "k"]).status == 0)
        #expect(try CommandLineTool.run(["ls", store]).outputText.contains("k"))
    }

    @Test func statsJSONHasSizeLimitAndCounters() throws {
        _ = try CommandLineTool.run(["create", store, "--max-size", "1GiB"])
        _ = try CommandLineTool.run(["put", store, "k", "--offset", "0"], input: Data(origin.bytes(0, 5000)))
        let result = try CommandLineTool.run(["stats", store, "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any])
        #expect(object["entries"] as? Int == 1)
        #expect(object["maxSize"] as? Int == 1 << 30)
        #expect((object["totalBytes"] as? Int ?? 0) > 0)
        for counter in ["hits", "misses", "bytesFromCache", "bytesFromOrigin", "evictions"] {
            #expect(object[counter] is Int, "\(counter)")
        }
        #expect(object["bytesFromOrigin"] as? Int == 5000)
    }

    @Test func evictRmAndClearFreeSpaceAndReportIt() throws {
        for key in ["a", "b", "c"] {
            _ = try CommandLineTool.run(["put", store, key, "--offset", "0"], input: Data(origin.bytes(0, 50_000)))
        }
        #expect(try CommandLineTool.run(["evict", store, "--to", "150000"]).outputText.contains("evicted 1 entries"))
        #expect(try CommandLineTool.run(["rm", store, "b"]).status == 0)
        #expect(try CommandLineTool.run(["rm", store, "b"]).status == 1)
        let cleared = try CommandLineTool.run(["clear", store])
        #expect(cleared.status == 0)
        #expect((UInt64(cleared.outputText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) >= 50_000)
        #expect(try CommandLineTool.run(["ls", store, "--json"]).outputText == "[]\n")
    }

    @Test func aSizeThatIsNotASizeIsAUsageError() throws {
        #expect(try CommandLineTool.run(["create", store, "--max-size", "lots"]).status == 2)
    }

    @Test func writingToAStoreAnotherProcessWritesFailsClearlyWhileReadingWorks() throws {
        _ = try CommandLineTool.run(["put", store, "k", "--offset", "0"], input: Data(origin.bytes(0, 100)))
        let holder = try CacheStore.open(at: store)
        let put = try CommandLineTool.run(["put", store, "k2", "--offset", "0"], input: Data([1]))
        #expect(put.status == 1)
        #expect(put.standardError.contains("open for writing by another process"))
        let entryFile = try #require(holder.entry(for: "k")?.fileName)
        for reading in [
            ["get", store, "k", "--range", "0-99"], ["ls", store], ["stats", store],
            ["inspect", store + "/entries/" + entryFile], ["verify", store + "/entries"],
        ] {
            let result = try CommandLineTool.run(reading)
            #expect(result.status == 0, "\(reading[0]): \(result.standardError)")
        }
        try holder.close()
    }

    @Test func getCountsAHitAndMovesTheEntryUpWhenNoOtherProcessHoldsTheStore() throws {
        for key in ["a", "b"] {
            _ = try CommandLineTool.run(["put", store, key, "--offset", "0"], input: Data(origin.bytes(0, 100)))
        }
        func hits() throws -> Int? {
            let stats = try CommandLineTool.run(["stats", store, "--json"])
            return try (JSONSerialization.jsonObject(with: stats.standardOutput) as? [String: Any])?["hits"] as? Int
        }
        func order() throws -> [String] {
            let list = try CommandLineTool.run(["ls", store, "--json"])
            return (try JSONSerialization.jsonObject(with: list.standardOutput) as? [[String: Any]])?.compactMap { $0["key"] as? String } ?? []
        }
        let before = try #require(try hits())
        #expect(try order() == ["b", "a"])
        let get = try CommandLineTool.run(["get", store, "a", "--range", "0-9"])
        #expect(get.status == 0)
        #expect([UInt8](get.standardOutput) == origin.bytes(0, 10))
        #expect(try hits() == before + 1)
        #expect(try order() == ["a", "b"])
    }

    @Test(.timeLimit(.minutes(1)))
    func aServingProcessHoldsTheStoreNamesItselfAndReadersStillWork() throws {
        _ = try CommandLineTool.run(["put", store, "k", "--offset", "0"], input: Data(origin.bytes(0, 100)))
        let serve = ChildProcess()
        serve.executableURL = CommandLineTool.executable
        serve.arguments = ["serve", "--cache-dir", store, "--port", "0"]
        let output = Pipe()
        serve.standardOutput = output
        serve.standardError = FileHandle.nullDevice
        try serve.run()
        defer {
            serve.terminate()
            serve.waitUntilExit()
        }
        // It prints its address once the store is open and it listens.
        var printed = Data()
        while !printed.contains(UInt8(ascii: "\n")) {
            let more = output.fileHandleForReading.availableData
            guard !more.isEmpty else { break }
            printed += more
        }
        #expect(String(decoding: printed, as: UTF8.self).hasPrefix("listening on"))
        #expect(CacheStore.holder(of: store)?.processIdentifier == serve.processIdentifier)
        let get = try CommandLineTool.run(["get", store, "k", "--range", "0-99"])
        #expect(get.status == 0)
        #expect([UInt8](get.standardOutput) == origin.bytes(0, 100))
        #expect(try CommandLineTool.run(["ls", store]).status == 0)
    }
}
