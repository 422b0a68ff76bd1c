import ArgumentParser
import SparseFile

/// `sparsecache file read FILE --range A-B`: writes exactly those bytes to standard output, or
/// nothing at all, listing the missing ranges on standard error and exiting 3.
struct FileReadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read",
        abstract: "Print original bytes A-B (inclusive) of a cache file; exit 3 if any is missing."
    )

    @Argument(help: "The cache file.")
    var file: String

    @Option(help: "Inclusive byte positions, as in HTTP: A-B.")
    var range: InclusiveRangeArgument

    func run() throws(CommandFailure) {
        let cacheFile = try failingWithExitCode { () throws(SparseFileError) in try SparseFile.open(at: file) }
        // Check the whole range before writing anything, so a miss never prints partial bytes.
        let missing = cacheFile.missingRanges(in: range.range)
        guard missing.isEmpty else { throw Self.missingFailure(missing, file: file) }
        var buffer = [UInt8](repeating: 0, count: Int(min(range.range.length, 1 << 20)))
        var chunks: [(UInt64, Int)] = []
        var position = range.range.offset
        while position < range.range.end {
            let count = Int(min(UInt64(buffer.count), range.range.end - position))
            chunks.append((position, count))
            position += UInt64(count)
        }
        // Large ranges are verified chunk by chunk first (reads memoize verified blocks), then
        // streamed; a corrupt chunk found in the first pass means nothing is written.
        if chunks.count > 1 {
            for (start, count) in chunks {
                let outcome = try read(cacheFile, into: &buffer, count: count, at: start)
                if case .missing(let gaps) = outcome { throw Self.missingFailure(gaps, file: file) }
            }
        }
        for (start, count) in chunks {
            let outcome = try read(cacheFile, into: &buffer, count: count, at: start)
            if case .missing(let gaps) = outcome { throw Self.missingFailure(gaps, file: file) }
            buffer.withUnsafeBytes { _ = writeAll(UnsafeRawBufferPointer(rebasing: $0[0..<count]), to: 1) }
        }
    }

    private func read(_ cacheFile: SparseFile, into buffer: inout [UInt8], count: Int, at offset: UInt64) throws(CommandFailure) -> ReadOutcome {
        do {
            return try buffer.withUnsafeMutableBytes { bytes in
                try cacheFile.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[0..<count]), at: offset)
            }
        } catch let error as SparseFileError {
            throw error.commandFailure
        } catch {
            throw CommandFailure(code: .failure, message: "\(file): \(error)")
        }
    }

    static func missingFailure(_ ranges: [ByteRange], file: String) -> CommandFailure {
        let list = ranges.map(\.description).joined(separator: ", ")
        return CommandFailure(code: .missing, message: "\(file): missing \(list)")
    }
}
