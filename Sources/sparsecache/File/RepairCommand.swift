import ArgumentParser
import SparseFile

/// `sparsecache repair FILE`: drops corrupt extents, keeps the rest, exits 0.
struct RepairCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repair",
        abstract: "Drop a cache file's corrupt ranges and rewrite a bad header slot, keeping everything sound."
    )

    @Argument(help: "The cache file.")
    var file: String

    func run() throws(CommandFailure) {
        let report = try failingWithExitCode { () throws(SparseFileError) in
            let cacheFile = try SparseFile.open(at: file, mode: .readWrite, options: SparseFileOptions(durability: .full))
            let report = try cacheFile.repair()
            try cacheFile.close()
            return report
        }
        guard report.changedFile else {
            writeToStandardOutput("\(file): sound, nothing to repair\n")
            return
        }
        var lines: [String] = []
        if !report.droppedRanges.isEmpty {
            lines.append("dropped corrupt ranges " + report.droppedRanges.map(\.description).joined(separator: ", "))
        }
        for slot in report.verification.slots where slot.isDamaged {
            lines.append("rewrote header slot \(slot.index) (\(slot.problem ?? "invalid"))")
        }
        writeToStandardOutput("\(file): repaired: \(lines.joined(separator: "; "))\n")
    }
}
