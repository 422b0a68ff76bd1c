#if canImport(Darwin)
package import Darwin
#elseif canImport(Glibc)
package import Glibc
#endif
import CPageCache

/// The system calls that sparse files and stores make, behind one seam so tests can inject
/// `EIO`, `ENOSPC`, short writes, blocked calls and power failures at exact points. Production
/// code uses ``live``.
///
/// Each call returns the raw result and leaves `errno` set as the system call did. Reading a
/// directory's names (`opendir`) and the clock are the only file-system calls made elsewhere.
package struct SystemCalls: Sendable {
    package var open: @Sendable (_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32
    package var close: @Sendable (_ fd: Int32) -> Int32
    package var pread: @Sendable (_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, _ offset: Int64) -> Int
    package var pwrite: @Sendable (_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int, _ offset: Int64) -> Int
    /// Makes a file's data durable (`fdatasync`; `fsync` where there is no `fdatasync`).
    package var fdatasync: @Sendable (_ fd: Int32) -> Int32
    /// Makes a directory's entries durable (`fsync` of a directory descriptor).
    package var fsync: @Sendable (_ fd: Int32) -> Int32
    package var ftruncate: @Sendable (_ fd: Int32, _ length: Int64) -> Int32
    package var flock: @Sendable (_ fd: Int32, _ operation: Int32) -> Int32
    package var dup: @Sendable (_ fd: Int32) -> Int32
    package var fstat: @Sendable (_ fd: Int32, _ status: UnsafeMutablePointer<FileStatusBuffer>) -> Int32
    package var stat: @Sendable (_ path: String, _ status: UnsafeMutablePointer<FileStatusBuffer>) -> Int32
    package var rename: @Sendable (_ source: String, _ destination: String) -> Int32
    package var link: @Sendable (_ source: String, _ destination: String) -> Int32
    package var unlink: @Sendable (_ path: String) -> Int32
    package var mkdir: @Sendable (_ path: String, _ mode: mode_t) -> Int32
    /// The free space of the volume holding `path`.
    package var statvfs: @Sendable (_ path: String, _ status: UnsafeMutablePointer<VolumeStatusBuffer>) -> Int32
    /// How many pages of the file's bytes `offset..<offset + length` are in the page cache
    /// (`cachestat`), or -1 with `errno` (`ENOSYS` where the system cannot tell).
    package var cachedPages: @Sendable (_ fd: Int32, _ offset: UInt64, _ length: UInt64) -> Int64

    package static let live = SystemCalls(
        open: { path, flags, mode in platformOpen(path, flags, mode) },
        close: { fd in platformClose(fd) },
        pread: { fd, buffer, count, offset in platformPread(fd, buffer, count, off_t(offset)) },
        pwrite: { fd, buffer, count, offset in platformPwrite(fd, buffer, count, off_t(offset)) },
        fdatasync: { fd in
            #if canImport(Darwin)
            // Darwin has no fdatasync; fsync flushes to the drive (F_FULLFSYNC would also flush
            // the drive's cache, at a cost SQLite also leaves opt-in).
            Darwin.fsync(fd)
            #else
            Glibc.fdatasync(fd)
            #endif
        },
        fsync: { fd in platformFsync(fd) },
        ftruncate: { fd, length in platformFtruncate(fd, off_t(length)) },
        flock: { fd, operation in platformFlock(fd, operation) },
        dup: { fd in platformDup(fd) },
        fstat: { fd, status in platformFstat(fd, status) },
        stat: { path, status in platformStat(path, status) },
        rename: { source, destination in platformRename(source, destination) },
        link: { source, destination in platformLink(source, destination) },
        unlink: { path in platformUnlink(path) },
        mkdir: { path, mode in platformMkdir(path, mode) },
        statvfs: { path, status in platformStatvfs(path, status) },
        cachedPages: { fd, offset, length in
            var cached: UInt64 = 0
            guard sparsecache_cached_pages(fd, offset, length, &cached) == 0 else { return -1 }
            return Int64(clamping: cached)
        }
    )
}

/// The buffer `stat` and `fstat` fill.
package typealias FileStatusBuffer = stat
/// The buffer `statvfs` fills.
package typealias VolumeStatusBuffer = statvfs

// The C functions, named at file scope where the properties above do not shadow them.
private let platformOpen: @Sendable (String, Int32, mode_t) -> Int32 = { open($0, $1, $2) }
private let platformClose: @Sendable (Int32) -> Int32 = { close($0) }
private let platformPread: @Sendable (Int32, UnsafeMutableRawPointer, Int, off_t) -> Int = { pread($0, $1, $2, $3) }
private let platformPwrite: @Sendable (Int32, UnsafeRawPointer, Int, off_t) -> Int = { pwrite($0, $1, $2, $3) }
private let platformFsync: @Sendable (Int32) -> Int32 = { fsync($0) }
private let platformFtruncate: @Sendable (Int32, off_t) -> Int32 = { ftruncate($0, $1) }
private let platformFlock: @Sendable (Int32, Int32) -> Int32 = { flock($0, $1) }
private let platformDup: @Sendable (Int32) -> Int32 = { dup($0) }
private let platformFstat: @Sendable (Int32, UnsafeMutablePointer<stat>) -> Int32 = { fstat($0, $1) }
private let platformStat: @Sendable (String, UnsafeMutablePointer<stat>) -> Int32 = { stat($0, $1) }
private let platformRename: @Sendable (String, String) -> Int32 = { rename($0, $1) }
private let platformLink: @Sendable (String, String) -> Int32 = { link($0, $1) }
private let platformUnlink: @Sendable (String) -> Int32 = { unlink($0) }
private let platformMkdir: @Sendable (String, mode_t) -> Int32 = { mkdir($0, $1) }
private let platformStatvfs: @Sendable (String, UnsafeMutablePointer<statvfs>) -> Int32 = { statvfs($0, $1) }
