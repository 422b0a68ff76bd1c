// libFuzzer target: arbitrary bytes as a cache file. Opening must fail with a SparseFileError
// or succeed; an opened file must serve only bytes that verify; a writer that commits into it
// must leave a file that reopens. Anything else traps and is a finding.
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

private func exercise(_ file: SparseFile) {
    var budget: UInt64 = 1 << 20
    for range in file.cachedRanges.prefix(64) {
        guard budget > 0, let piece = ByteRange(offset: range.offset, length: min(range.length, budget)) else { break }
        budget -= piece.length
        _ = try? file.read(piece)
    }
    _ = try? file.verify()
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
    let offset = file.cachedRanges.last?.end ?? 0
    if (try? writer.write([1, 2, 3, 4, 5], at: offset % (1 << 40))) != nil, (try? writer.close()) != nil {
        do {
            let reopened = try SparseFile.open(at: copyPath)
            exercise(reopened)
        } catch {
            preconditionFailure("a file committed by a writer does not reopen: \(error)")
        }
    }
    return 0
}
