import SparseFile

/// Writes original bytes of a cache file to standard output, all of them or none: large ranges
/// are verified chunk by chunk first (reads memoize verified blocks), then streamed, so a
/// corrupt chunk found in the first pass means nothing is written, and memory stays at one chunk
/// however large the range.
struct RangeOutput {
    let file: SparseFile
    /// What messages call the file: its path, or a store entry's key.
    let name: String
    static let chunkSize: UInt64 = 1 << 20

    /// Writes `range`; throws exit 3 naming the missing ranges, or the read error.
    func write(_ range: ByteRange) throws(CommandFailure) {
        let missing = file.missingRanges(in: range)
        guard missing.isEmpty else { throw missingFailure(missing) }
        var buffer = [UInt8](repeating: 0, count: Int(min(range.length, Self.chunkSize)))
        var chunks: [(UInt64, Int)] = []
        var position = range.offset
        while position < range.end {
            let count = Int(min(UInt64(buffer.count), range.end - position))
            chunks.append((position, count))
            position += UInt64(count)
        }
        if chunks.count > 1 {
            for (start, count) in chunks {
                if case .missing(let gaps) = try read(into: &buffer, count: count, at: start) { throw missingFailure(gaps) }
            }
        }
        for (start, count) in chunks {
            if case .missing(let gaps) = try read(into: &buffer, count: count, at: start) { throw missingFailure(gaps) }
            buffer.withUnsafeBytes { _ = writeAll(UnsafeRawBufferPointer(rebasing: $0[0..<count]), to: 1) }
        }
    }

    private func read(into buffer: inout [UInt8], count: Int, at offset: UInt64) throws(CommandFailure) -> ReadOutcome {
        do {
            return try buffer.withUnsafeMutableBytes { bytes in
                try file.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[0..<count]), at: offset)
            }
        } catch let error as SparseFileError {
            throw error.commandFailure
        } catch {
            throw CommandFailure(code: .failure, message: "\(name): \(error)")
        }
    }

    func missingFailure(_ ranges: [ByteRange]) -> CommandFailure {
        CommandFailure(code: .missing, message: "\(name): missing " + ranges.map(\.description).joined(separator: ", "))
    }
}
