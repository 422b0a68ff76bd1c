import Foundation
import Testing
import TestSupport
@testable import SparseFile

/// A power failure at every system call of a workload: the disk image left behind opens (or,
/// without syncs, may fail to), serves only bytes the origin sent, and keeps every commit the
/// durability policy promises.
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

    static let longKey = "https://origin.example/" + String(repeating: "k", count: 3800)

    struct Outcome {
        var image: String
        var syncsBeforeCrash: Int
        /// For each completed commit: the syncs that had finished when its header was written,
        /// and the ranges it recorded.
        var commits: [(syncs: Int, ranges: [ByteRange])]
        var totalCalls: Int
    }

    /// Runs `body` on a fresh directory prepared by `setUp`, with the power failing at call
    /// `crashAt`, and returns the directory the disk image was written to with the simulator.
    func crashing(
        at crashAt: Int, seed: UInt64, in directory: TemporaryDirectory, setUp: (String) throws -> Void,
        body: (String, SystemCalls, PowerLossSimulator) throws -> Void
    ) throws -> (image: String, simulator: PowerLossSimulator) {
        let live = directory.file("live-\(crashAt)")
        try FileManager.default.createDirectory(atPath: live, withIntermediateDirectories: true)
        try setUp(live)
        let simulator = try PowerLossSimulator(directory: live, crashAtCall: crashAt, seed: seed)
        do {
            try body(live, simulator.calls, simulator)
        } catch let error as SparseFileError {
            #expect(error.code == .ioFailure && simulator.hasCrashed, "only the injected EIO may end the workload: \(error)")
        }
        let image = directory.file("image-\(crashAt)")
        try simulator.materialize(into: image)
        try FileManager.default.removeItem(atPath: live)
        return (image, simulator)
    }

    func run(durability: Durability, crashAt: Int, seed: UInt64, directory: TemporaryDirectory) throws -> Outcome {
        var commits: [(Int, [ByteRange])] = []
        let setup = SparseFileOptions(durability: .none, autoCommitInterval: nil)
        let (image, simulator) = try crashing(at: crashAt, seed: seed, in: directory, setUp: { live in
            try SparseFile.create(at: live + "/f", metadata: ResourceMetadata(key: Self.longKey), options: setup).close()
        }, body: { live, calls, simulator in
            let options = SparseFileOptions(SparseFileOptions(durability: durability, autoCommitInterval: nil), systemCalls: calls)
            let file = try SparseFile.open(at: live + "/f", mode: .readWrite, options: options)
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
        })
        return Outcome(image: image, syncsBeforeCrash: simulator.syncsBeforeCrash, commits: commits,
                       totalCalls: simulator.callCount)
    }

    /// Every byte the file at `path` serves is the origin's; returns the open file, or nil when
    /// it does not open (allowed only where the caller says so).
    func checkServedBytes(at path: String, label: String, mayFailToOpen: Bool) throws -> SparseFile? {
        let file: SparseFile
        do {
            file = try SparseFile.open(at: path)
        } catch {
            #expect(mayFailToOpen, "the file does not open (\(label)): \(error)")
            return nil
        }
        for range in file.cachedRanges {
            if case .bytes(let bytes) = try file.read(range) {
                #expect(origin.matches(bytes, at: range.offset), "wrong bytes served in \(range) (\(label))")
            }
        }
        return file
    }

    func check(_ outcome: Outcome, durability: Durability, label: String) throws {
        // Without syncs, both slots can be torn: the file may not open, but never lies.
        let file = try checkServedBytes(at: outcome.image + "/f", label: label, mayFailToOpen: durability == .none)
        // Every commit whose header was followed by a completed sync must be there in full.
        if durability != .none, let file, let promised = outcome.commits.last(where: { $0.syncs < outcome.syncsBeforeCrash }) {
            for range in promised.ranges {
                #expect(file.missingRanges(in: range).isEmpty, "committed range \(range) lost (\(label))")
            }
        }
        try FileManager.default.removeItem(atPath: outcome.image)
    }

    @Test(arguments: [Durability.none, .ordered, .full])
    func aPowerFailureAtAnyCallLeavesAFileThatOpensAndKeepsItsPromises(durability: Durability) throws {
        let directory = TemporaryDirectory()
        let dryRun = try run(durability: durability, crashAt: Int.max, seed: 1, directory: directory)
        #expect(dryRun.totalCalls > 100)
        if durability != .none { #expect(try SparseFile.open(at: dryRun.image + "/f").headerInfo.isTableSpilled) }
        for crashAt in 1...dryRun.totalCalls {
            let outcome = try run(durability: durability, crashAt: crashAt, seed: UInt64(crashAt), directory: directory)
            try check(outcome, durability: durability, label: "\(durability)-\(crashAt)")
        }
    }

    /// Creating a file (a temporary file, synced, linked into place), writing and committing:
    /// with syncs, a power failure leaves no file or one that opens; without, one that may not
    /// open. None ever serves a wrong byte.
    @Test(arguments: [Durability.none, .ordered, .full])
    func aPowerFailureWhileCreatingAFileLeavesNoFileOrOneThatOpens(durability: Durability) throws {
        let directory = TemporaryDirectory()
        func create(crashAt: Int) throws -> (image: String, calls: Int) {
            let (image, simulator) = try crashing(at: crashAt, seed: UInt64(crashAt), in: directory, setUp: { _ in }) { live, calls, _ in
                let options = SparseFileOptions(SparseFileOptions(durability: durability, autoCommitInterval: nil), systemCalls: calls)
                let file = try SparseFile.create(at: live + "/f", metadata: ResourceMetadata(key: Self.longKey), options: options)
                try file.write(origin.bytes(0, 20_000), at: 0)
                try file.close()
            }
            return (image, simulator.callCount)
        }
        let dryRun = try create(crashAt: Int.max)
        #expect(dryRun.calls > 5)
        var opened = 0
        for crashAt in 1...dryRun.calls + 1 {
            let (image, _) = try create(crashAt: crashAt)
            let label = "\(durability)-\(crashAt)"
            if FileManager.default.fileExists(atPath: image + "/f"),
               try checkServedBytes(at: image + "/f", label: label, mayFailToOpen: durability == .none) != nil {
                opened += 1
            }
            try FileManager.default.removeItem(atPath: image)
        }
        #expect(opened > 0, "no crash point left a file that opens")
    }

    /// Compaction (a new file written beside the old one, renamed over it): with syncs, a power
    /// failure at any call leaves the old file or the new one, each whole.
    @Test(arguments: [Durability.ordered, .full])
    func aPowerFailureWhileCompactingLeavesTheOldFileOrTheNewOne(durability: Durability) throws {
        let directory = TemporaryDirectory()
        let ranges = (0..<60).map { index in (UInt64(index * 7919 % 60) * 10_000, 10_000) }
        func compact(crashAt: Int) throws -> (image: String, calls: Int) {
            let (image, simulator) = try crashing(at: crashAt, seed: UInt64(crashAt), in: directory, setUp: { live in
                let file = try SparseFile.create(at: live + "/f", metadata: ResourceMetadata(key: "compacted"),
                                                 options: SparseFileOptions(durability: .none, autoCommitInterval: nil))
                for (offset, length) in ranges { try file.write(origin.bytes(offset, length), at: offset) }
                try file.close()
            }, body: { live, calls, _ in
                let options = SparseFileOptions(SparseFileOptions(durability: durability, autoCommitInterval: nil), systemCalls: calls)
                let file = try SparseFile.open(at: live + "/f", mode: .readWrite, options: options)
                _ = try file.compact()
                try file.close()
            })
            return (image, simulator.callCount)
        }
        let dryRun = try compact(crashAt: Int.max)
        #expect(try SparseFile.open(at: dryRun.image + "/f").extentCount == 1)
        for crashAt in 1...dryRun.calls + 1 {
            let (image, _) = try compact(crashAt: crashAt)
            let label = "\(durability)-\(crashAt)"
            let file = try checkServedBytes(at: image + "/f", label: label, mayFailToOpen: false)
            for (offset, length) in ranges {
                #expect(file?.missingRanges(in: ByteRange(offset: offset, length: UInt64(length))!).isEmpty == true,
                        "bytes at \(offset) lost (\(label))")
            }
            try FileManager.default.removeItem(atPath: image)
        }
    }
}
