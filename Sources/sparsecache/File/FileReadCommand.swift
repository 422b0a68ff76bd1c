import ArgumentParser
import SparseFile

/// `sparsecache file read FILE --range A-B`: writes exactly those bytes to standard output, or
/// nothing at all, listing the missing ranges on standard error and exiting 3.
struct FileReadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read",
        abstract: "Print original bytes A-B (inclusive) of a cache file; exit 3 if any is missing.",
        discussion: "A range past the end of the resource is cut at the end, as in HTTP; one that starts past it "
            + "exits 3, saying how long the resource is. Write a suffix range as --range=-N."
    )

    @Argument(help: "The cache file.")
    var file: String

    @Option(help: "\(InclusiveRangeArgument.rule).")
    var range: InclusiveRangeArgument

    func run() throws(CommandFailure) {
        let cacheFile = try failingWithExitCode { () throws(SparseFileError) in try SparseFile.open(at: file) }
        let resolution = range.resolved(length: cacheFile.metadata.contentLength)
        if let failure = range.failure(resolution, name: file) { throw failure }
        guard case .bytes(let bytes?) = resolution else { return }
        try RangeOutput(file: cacheFile, name: file).write(bytes)
    }
}
