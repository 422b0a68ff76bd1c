import Foundation
import Testing
import TestSupport

/// One size rule: decimal units end in `B` without `i`, every other unit is binary, any case;
/// a size limit under 1 MiB is refused; `ls` and `stats` print sizes for people.
@Suite("Sizes: one rule, a minimum, human-readable output", .timeLimit(.minutes(1)))
struct SizeRuleTests {
    let directory = TemporaryDirectory("sizes")
    var store: String { directory.file("store") }

    static let sizes: [(String, Int)] = [
        ("500MB", 500_000_000), ("500mb", 500_000_000), ("2GB", 2_000_000_000), ("1GiB", 1_073_741_824), ("1gib", 1_073_741_824),
        ("1G", 1_073_741_824), ("1g", 1_073_741_824), ("1.5GiB", 1_610_612_736), ("2M", 2_097_152), ("2MiB", 2_097_152),
        ("1048576", 1_048_576),
    ]

    @Test("Sizes follow one rule", arguments: sizes)
    func sizesFollowOneRule(size: String, bytes: Int) throws {
        #expect(try CommandLineTool.run(["create", store, "--max-size", size]).status == 0)
        let stats = try JSONSerialization.jsonObject(with: try CommandLineTool.run(["stats", store, "--json"]).standardOutput) as? [String: Any]
        #expect(stats?["maxSize"] as? Int == bytes)
    }

    static let tooSmall: [([String], String)] = [
        (["create"], "10"), (["create"], "0"), (["create"], "1KiB"), (["create"], "1000000"),
        // An address this machine does not have: were the size taken, serve would fail to bind, not serve on.
        (["serve", "--port", "0", "--host", "192.0.2.1", "--allow-non-loopback"], "10"),
    ]

    @Test("A size limit under 1 MiB is refused with a message", arguments: tooSmall)
    func smallLimitsAreRefused(command: [String], size: String) throws {
        let target = command == ["create"] ? [store] : ["--cache-dir", store]
        let result = try CommandLineTool.run(command + target + ["--max-size", size])
        #expect(result.status == 2)
        #expect(result.standardError.contains("at least 1 MiB"))
        if size == "10" { #expect(result.standardError.contains("10MiB or 10GiB")) }
        #expect(!FileManager.default.fileExists(atPath: store + "/entries"), "nothing was created")
    }

    @Test("A size that is not one is refused, naming the rule")
    func aWordIsNotASize() throws {
        let result = try CommandLineTool.run(["create", store, "--max-size", "lots"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("not a size") && result.standardError.contains("powers of 1024"))
    }

    @Test("--help of every command that takes a size states the rule", arguments: [["serve"], ["create"], ["evict"]])
    func helpStatesTheRule(command: [String]) throws {
        let help = try CommandLineTool.run(command + ["--help"]).outputText.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("KB, MB, GB, TB are powers of 1000"))
        #expect(help.contains("K, M, G, T, KiB, MiB, GiB, TiB powers of 1024"))
    }

    @Test("ls and stats print sizes for people, bytes with --bytes")
    func humanReadableSizes() throws {
        #expect(try CommandLineTool.run(["create", store, "--max-size", "1GiB"]).status == 0)
        #expect(try CommandLineTool.run(["put", store, "k", "--offset", "0", "--total-length", "3145728"],
                                        input: Data(TestBytes(seed: 2).bytes(0, 5000))).status == 0)
        let stats = try CommandLineTool.run(["stats", store]).outputText
        #expect(stats.contains("maxSize: 1.0 GiB"))
        #expect(stats.contains("bytesFromOrigin: 4.8 KiB"))
        #expect(stats.contains("entries: 1"))
        #expect(try CommandLineTool.run(["stats", store, "--bytes"]).outputText.contains("maxSize: 1073741824"))
        let listing = try CommandLineTool.run(["ls", store]).outputText
        #expect(listing.contains("4.8 KiB") && listing.contains("3.0 MiB"))
        let exact = try CommandLineTool.run(["ls", store, "--bytes"]).outputText
        #expect(exact.contains("5000") && exact.contains("3145728"))
    }
}
