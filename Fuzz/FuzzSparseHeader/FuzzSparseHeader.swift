// libFuzzer target: arbitrary bytes as a cache file. Opening must fail with a SparseFileError
// or succeed; in an opened file, every cached range that verification calls sound must read as
// bytes; a writer that appends and commits must leave a file that reopens with the appended
// bytes readable. Anything else traps and is a finding.
//
// The input is a compact image of the file's meaningful regions, because a real file starts
// with 4 MiB of mostly holes: input bytes 0..<8192 are the two header slots (file offset 0),
// the next 4096 are the first checksum page (file offset 2 MiB) and the rest is the data space
// (file offset 4 MiB on). make-seeds.sh makes such images from real files.
import SparseFile
#if canImport(Glibc)
import Glibc
#endif

private let path = "/dev/shm/fuzz-sparse-header-\(getpid())"
private let copyPath = path + ".w"

private let headerArea = 8192
private let checksumPage = 4096

private func store(_ bytes: UnsafeRawBufferPointer, at target: String) {
    let descriptor = open(target, O_RDWR | O_CREAT | O_TRUNC, 0o644)
    precondition(descriptor >= 0, "cannot create \(target)")
    let regions: [(range: Range<Int>, fileOffset: Int)] = [
        (0..<headerArea, 0),
        (headerArea..<headerArea + checksumPage, 2 << 20),
        (headerArea + checksumPage..<Int.max, 4 << 20),
    ]
    for region in regions where region.range.lowerBound < bytes.count {
        let slice = UnsafeRawBufferPointer(rebasing: bytes[region.range.lowerBound..<min(region.range.upperBound, bytes.count)])
        if let base = slice.baseAddress {
            precondition(pwrite(descriptor, base, slice.count, off_t(region.fileOffset)) == slice.count)
        }
    }
    close(descriptor)
}

/// `ranges` without the parts that overlap `holes` (both sorted).
private func subtracting(_ holes: [ByteRange], from ranges: [ByteRange]) -> [ByteRange] {
    var result: [ByteRange] = []
    for range in ranges {
        var start = range.offset
        for hole in holes where hole.end > start && hole.offset < range.end {
            if let piece = ByteRange(from: start, to: hole.offset), piece.length > 0 { result.append(piece) }
            start = max(start, hole.end)
        }
        if let piece = ByteRange(from: start, to: range.end), piece.length > 0 { result.append(piece) }
    }
    return result
}

/// Verifies the file, then reads up to 1 MiB of what verification found sound: those bytes
/// must be served, never reported missing.
private func exercise(_ file: SparseFile) {
    guard let report = try? file.verify() else { return }
    var budget: UInt64 = 1 << 20
    for range in subtracting(report.corruptRanges, from: file.cachedRanges).prefix(64) {
        guard budget > 0, let piece = ByteRange(offset: range.offset, length: min(range.length, budget)) else { break }
        budget -= piece.length
        guard let outcome = try? file.read(piece) else { continue }
        guard case .bytes = outcome else {
            preconditionFailure("\(piece) verified sound but reads as \(outcome)")
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSparseHeader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    store(bytes, at: path)
    guard let file = try? SparseFile.open(at: path, options: SparseFileOptions(durability: .none)) else { return 0 }
    exercise(file)

    store(bytes, at: copyPath)
    guard let writer = try? SparseFile.open(at: copyPath, mode: .readWrite, options: SparseFileOptions(durability: .none)) else {
        return 0
    }
    let appended: [UInt8] = [1, 2, 3, 4, 5]
    let offset = (file.cachedRanges.last?.end ?? 0) % (1 << 40)
    if (try? writer.write(appended, at: offset)) != nil, (try? writer.close()) != nil {
        let reopened: SparseFile
        do {
            reopened = try SparseFile.open(at: copyPath)
        } catch {
            preconditionFailure("a file committed by a writer does not reopen: \(error)")
        }
        if let range = ByteRange(offset: offset, length: UInt64(appended.count)) {
            let outcome = try? reopened.read(range)
            precondition(outcome == .bytes(appended), "the appended bytes at \(range) read back as \(String(describing: outcome))")
        }
        exercise(reopened)
    }
    return 0
}
