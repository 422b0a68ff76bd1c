#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The kernel's page cache of a file, for tests of what happens when a file's pages leave memory
/// (as they do when the system is short of memory).
public enum PageCache {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

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
