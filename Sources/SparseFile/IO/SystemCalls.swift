#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system calls a sparse file makes, behind one seam so tests can inject `EIO`, `ENOSPC`,
/// short writes and crashes at exact points. Production code uses ``live``.
///
/// Each call returns the raw result and leaves `errno` set as the system call did.
package struct SystemCalls: Sendable {
    package var pread: @Sendable (_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, _ offset: Int64) -> Int
    package var pwrite: @Sendable (_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int, _ offset: Int64) -> Int
    package var fdatasync: @Sendable (_ fd: Int32) -> Int32
    package var ftruncate: @Sendable (_ fd: Int32, _ length: Int64) -> Int32

    package init(
        pread: @escaping @Sendable (Int32, UnsafeMutableRawPointer, Int, Int64) -> Int,
        pwrite: @escaping @Sendable (Int32, UnsafeRawPointer, Int, Int64) -> Int,
        fdatasync: @escaping @Sendable (Int32) -> Int32,
        ftruncate: @escaping @Sendable (Int32, Int64) -> Int32
    ) {
        self.pread = pread
        self.pwrite = pwrite
        self.fdatasync = fdatasync
        self.ftruncate = ftruncate
    }

    package static let live = SystemCalls(
        pread: { fd, buffer, count, offset in
            #if canImport(Glibc)
            Glibc.pread(fd, buffer, count, off_t(offset))
            #else
            Darwin.pread(fd, buffer, count, off_t(offset))
            #endif
        },
        pwrite: { fd, buffer, count, offset in
            #if canImport(Glibc)
            Glibc.pwrite(fd, buffer, count, off_t(offset))
            #else
            Darwin.pwrite(fd, buffer, count, off_t(offset))
            #endif
        },
        fdatasync: { fd in
            #if canImport(Glibc)
            Glibc.fdatasync(fd)
            #else
            Darwin.fsync(fd)
            #endif
        },
        ftruncate: { fd, length in
            #if canImport(Glibc)
            Glibc.ftruncate(fd, off_t(length))
            #else
            Darwin.ftruncate(fd, off_t(length))
            #endif
        }
    )
}
