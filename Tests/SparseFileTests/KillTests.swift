import Foundation
import Testing
import TestSupport
@testable import SparseFile

/// Hundreds of writer processes killed with SIGKILL at random moments, all on one file.
@Suite("Writers killed at random moments")
struct KillTests {
    let origin = TestBytes(seed: 1234)

    @Test func aWriterKilledAtAnyMomentNeverCostsCommittedBytesOrServesAWrongOne() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("victim")
        let payload = directory.file("payload")
        var generator = SeededGenerator(seed: 77)
        var committed: [ByteRange] = []
        let rounds = 200
        var killedMidway = 0
        for round in 0..<rounds {
            let offset = UInt64.random(in: 0..<6_000_000, using: &generator)
            let length = Int.random(in: 1...1_500_000, using: &generator)
            try Data(origin.bytes(offset, length)).write(to: URL(fileURLWithPath: payload))
            let durability = round % 3 == 0 ? "ordered" : "none"
            let writer = try CommandLineTool.launch(
                ["file", "write", path, "--offset", "\(offset)", "--key", "victim",
                 "--commit-interval", "65536", "--durability", durability],
                inputFile: payload)
            usleep(UInt32.random(in: 0..<40_000, using: &generator))
            if writer.isRunning {
                kill(writer.processIdentifier, SIGKILL)
                killedMidway += 1
            }
            writer.waitUntilExit()
            guard FileManager.default.fileExists(atPath: path) else { continue }

            let file = try SparseFile.open(at: path)
            let ranges = file.cachedRanges
            for range in committed {
                #expect(file.missingRanges(in: range).isEmpty, "round \(round): committed \(range) lost")
            }
            for range in ranges {
                guard case .bytes(let bytes) = try file.read(range) else {
                    Issue.record("round \(round): cached range \(range) failed verification")
                    continue
                }
                #expect(origin.matches(bytes, at: range.offset), "round \(round): wrong bytes in \(range)")
            }
            committed = ranges
        }
        #expect(killedMidway > rounds / 4, "too few writers were killed mid-write to prove anything")
        let report = try SparseFile.open(at: path).verify()
        #expect(report.corruptRanges.isEmpty)
    }
}
