import ArgumentParser
import SparseFile

/// `sparsecache compact FILE`: rewrites a fragmented cache file in origin order.
struct CompactCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compact",
        abstract: "Rewrite a cache file with its ranges in origin order (atomic rename)."
    )

    @Argument(help: "The cache file.")
    var file: String

    func run() throws(CommandFailure) {
        let report = try failingWithExitCode { () throws(SparseFileError) in
            let cacheFile = try SparseFile.open(at: file, mode: .readWrite, options: SparseFileOptions(durability: .full))
            let report = try cacheFile.compact()
            try cacheFile.close()
            return report
        }
        var line = "\(file): \(report.fileSizeBefore) -> \(report.fileSizeAfter) bytes, \(report.extentsBefore) -> \(report.extentsAfter) extents"
        if !report.droppedRanges.isEmpty {
            line += "; left out corrupt ranges " + report.droppedRanges.map(\.description).joined(separator: ", ")
        }
        writeToStandardOutput(line + "\n")
    }
}
