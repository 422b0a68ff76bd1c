import Foundation
import Testing
import TestSupport
@testable import SparseFile

/// A power failure at every system call of a write workload: the disk image left behind opens,
/// serves only bytes the origin sent, and keeps every commit the durability policy promises.
@Suite("Power loss at every system call")
struct PowerLossTests {
    let origin = TestBytes(seed: 99)

    /// One workload step: a write of `length` bytes at `offset`, then maybe a commit.
    struct Step {
        var offset: UInt64
        var length: Int
        var commits: Bool
    }

    /// Scattered, overlapping writes with commits between them. With the long key below, the
    /// header body outgrows its slot after a few dozen ranges, so the table spills (and its
    /// spill areas are reused and reallocated) part-way through.
    static func workload() -> [Step] {
        var generator = SeededGenerator(seed: 1)
        return (0..<120).map { index in
            let scattered = index > 30
            let offset = scattered ? UInt64.random(in: 0..<2_000_000, using: &generator) : UInt64(index) * 3000
            let length = scattered ? Int.random(in: 1...300, using: &generator) : Int.random(in: 1...9000, using: &generator)
            return Step(offset: offset, length: length, commits: index % 6 == 5)
        }
    }

    struct Outcome {
        var crashImage: [UInt8]
        var syncsBeforeCrash: Int
        /// For each completed commit: the syncs that had finished when its header was written,
        /// and the ranges it recorded.
        var commits: [(syncs: Int, ranges: [ByteRange])]
        var totalCalls: Int
    }

    func run(durability: Durability, crashAt: Int, seed: UInt64, directory: TemporaryDirectory) throws -> Outcome {
        let path = directory.file("f-\(crashAt)")
        let setup = SparseFileOptions(durability: .none, autoCommitInterval: nil)
        let key = "https://origin.example/" + String(repeating: "k", count: 3800)
        try SparseFile.create(at: path, metadata: ResourceMetadata(key: key), options: setup).close()
        let initial = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let simulator = PowerLossSimulator(initialImage: initial, crashAtCall: crashAt, seed: seed)
        let options = SparseFileOptions(SparseFileOptions(durability: durability, autoCommitInterval: nil), systemCalls: simulator.calls)
        var commits: [(Int, [ByteRange])] = []
        do {
            let file = try SparseFile.open(at: path, mode: .readWrite, options: options)
            for step in Self.workload() {
                try file.write(origin.bytes(step.offset, step.length), at: step.offset)
                if step.commits {
                    try file.commit()
                    let syncs = simulator.syncCount - (durability == .full ? 1 : 0)
                    commits.append((syncs, file.cachedRanges))
                }
            }
            try file.commit()
            commits.append((simulator.syncCount - (durability == .full ? 1 : 0), file.cachedRanges))
        } catch {
            let code = error.code
            #expect(code == .ioFailure, "only the injected EIO may end the workload: \(error)")
        }
        // A crash point past the last call leaves the disk as the last sync made it, plus whatever
        // of the later writes the simulator keeps.
        return Outcome(crashImage: simulator.crashImage ?? simulator.imageAfterPowerFailure(), syncsBeforeCrash: simulator.syncsBeforeCrash,
                       commits: commits, totalCalls: simulator.callCount)
    }

    func check(_ outcome: Outcome, directory: TemporaryDirectory, label: String) throws {
        let path = directory.file("image-\(label)")
        #expect(FileManager.default.createFile(atPath: path, contents: Data(outcome.crashImage)))
        let file = try SparseFile.open(at: path)
        for range in file.cachedRanges {
            let result = try file.read(range)
            if case .bytes(let bytes) = result {
                #expect(origin.matches(bytes, at: range.offset), "wrong bytes served in \(range) (\(label))")
            }
        }
        // Every commit whose header was followed by a completed sync must be there in full.
        if let promised = outcome.commits.last(where: { $0.syncs < outcome.syncsBeforeCrash }) {
            for range in promised.ranges {
                #expect(file.missingRanges(in: range).isEmpty, "committed range \(range) lost (\(label))")
            }
        }
        try FileManager.default.removeItem(atPath: path)
    }

    @Test(arguments: [Durability.ordered, .full])
    func aPowerFailureAtAnyCallLeavesAFileThatOpensAndKeepsItsPromises(durability: Durability) throws {
        let directory = TemporaryDirectory()
        let dryRun = try run(durability: durability, crashAt: Int.max, seed: 1, directory: directory)
        #expect(dryRun.totalCalls > 100)
        #expect(try SparseFile.open(at: directory.file("f-\(Int.max)")).headerInfo.isTableSpilled)
        for crashAt in 1...dryRun.totalCalls {
            let outcome = try run(durability: durability, crashAt: crashAt, seed: UInt64(crashAt), directory: directory)
            try check(outcome, directory: directory, label: "\(durability)-\(crashAt)")
            try? FileManager.default.removeItem(atPath: directory.file("f-\(crashAt)"))
        }
    }
}
