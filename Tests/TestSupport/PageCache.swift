#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SparseFile

/// The kernel's page cache of a file, for tests of what happens when a file's pages leave memory
/// (as they do when the system is short of memory).
public enum PageCache {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Whether the kernel tells which pages of a file are in memory (`cachestat`, Linux 6.5 and
    /// later; Debian 12's own kernel is 6.1). Where it cannot, the cache counts every byte as in
    /// memory, as before cold reads (Docs/PROXY.md), so the tests that drop real pages and
    /// expect them found gone are skipped there, and say so.
    public static let kernelReportsResidency: Bool = {
        let descriptor = open("/proc/self/exe", O_RDONLY)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return SystemCalls.live.cachedPages(descriptor, 0, 4096) >= 0
    }()

    /// Writes the file's dirty pages to disk and drops its pages from memory (those holding
    /// bytes `offset..<offset + length`; a length of 0 reaches the end of the file): the next
    /// read of such a byte comes from the disk. Pages mapped by a process stay (the kernel drops
    /// only pages no one maps), and a file on tmpfs has no disk to drop them to.
    public static func drop(_ path: String, offset: UInt64 = 0, length: UInt64 = 0) throws {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw Failure(description: "cannot open \(path): errno \(errno)") }
        defer { close(descriptor) }
        guard fdatasync(descriptor) == 0 else { throw Failure(description: "fdatasync \(path): errno \(errno)") }
        #if canImport(Glibc)
        let result = posix_fadvise(descriptor, off_t(offset), off_t(length), POSIX_FADV_DONTNEED)
        guard result == 0 else { throw Failure(description: "posix_fadvise \(path): error \(result)") }
        #endif
    }

    /// Changes bytes at `offset` of the file on disk, behind the back of whoever verified them,
    /// then drops the file's pages: the next read gets the changed bytes from the disk, as after
    /// a flash cell or a sector went bad.
    public static func damageOnDisk(_ path: String, at offset: UInt64, count: Int = 1) throws {
        let descriptor = open(path, O_RDWR)
        guard descriptor >= 0 else { throw Failure(description: "cannot open \(path): errno \(errno)") }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        guard pread(descriptor, &bytes, count, off_t(offset)) == count else { throw Failure(description: "read of \(path) fell short") }
        for index in bytes.indices { bytes[index] ^= 0x5A }
        guard pwrite(descriptor, bytes, count, off_t(offset)) == count else { throw Failure(description: "write to \(path) fell short") }
        try drop(path)
    }
}
