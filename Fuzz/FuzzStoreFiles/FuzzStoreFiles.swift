@testable import CacheStore
import SparseFile
#if canImport(Glibc)
import Glibc
#endif

// The small files of a store directory as damaged or foreign bytes: `DIR/settings` (the maximum
// size `sparsecache create` keeps) and `DIR/lock` (the pid of the process that writes). The
// input is written as each file of a directory in /dev/shm and read as the store reads it.
//
// What must hold: reading never traps; a maximum size read is written in the file (its digits
// follow `max-size=`); a pid read is a positive number, and reads back the same from the line
// the store writes into its lock file; writing a maximum size over the file reads back that
// size.

private let root = "/dev/shm/fuzz-store-files-\(getpid())"
private let layout = StoreDirectory(root: root, calls: .live)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStoreFiles(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let start else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    mkdir(root, 0o755)

    if let pid = StoreDirectory.processIdentifier(in: bytes) {
        precondition(pid > 0, "a lock file naming process \(pid)")
        precondition(StoreDirectory.processIdentifier(in: Array("\(pid)\n".utf8)) == pid, "pid \(pid) does not read back")
    }

    write(bytes, to: layout.settingsPath)
    let maximum = layout.readMaximumSize()
    if let maximum {
        let text = String(decoding: bytes, as: UTF8.self)
        precondition(text.contains("max-size=") && text.contains(String(maximum)), "a maximum size of \(maximum) that the file does not hold")
    }
    let size = maximum.map { $0 / 2 } ?? UInt64(count) << 20
    do {
        try layout.writeMaximumSize(size)
    } catch {
        preconditionFailure("the settings file cannot be written: \(error)")
    }
    precondition(layout.readMaximumSize() == size, "a maximum size of \(size) does not read back")
    return 0
}

private func write(_ bytes: [UInt8], to path: String) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    precondition(descriptor >= 0, "cannot create \(path)")
    let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
    precondition(written == bytes.count, "cannot write \(path)")
    close(descriptor)
}
