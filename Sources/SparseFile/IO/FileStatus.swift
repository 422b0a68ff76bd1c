#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// What `stat` says about a file, in the units the package uses.
package struct FileStatus: Sendable, Hashable {
    /// The apparent size in bytes.
    package var size: UInt64
    /// The bytes the file occupies on disk (allocated blocks; holes are free).
    package var allocatedBytes: UInt64
    /// The modification time in nanoseconds since 1970.
    package var modified: UInt64
    package var isRegularFile: Bool
    package var isDirectory: Bool

    init(_ status: FileStatusBuffer) {
        size = UInt64(clamping: status.st_size)
        allocatedBytes = UInt64(clamping: status.st_blocks) * 512
        #if canImport(Darwin)
        let time = status.st_mtimespec
        #else
        let time = status.st_mtim
        #endif
        modified = UInt64(clamping: time.tv_sec) * 1_000_000_000 + UInt64(clamping: time.tv_nsec)
        let kind = status.st_mode & S_IFMT
        isRegularFile = kind == S_IFREG
        isDirectory = kind == S_IFDIR
    }

    /// The status of the file at `path`, or nil when it cannot be read (`errno` says why).
    package init?(path: String, calls: SystemCalls) {
        var status = FileStatusBuffer()
        guard calls.stat(path, &status) == 0 else { return nil }
        self.init(status)
    }
}
