#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The warning for a size limit the store's volume cannot hold: the cache would stop growing at
/// the disk's free space, never at the limit asked for, and a newcomer should know at start-up,
/// not when the disk fills.
enum FreeSpaceWarning {
    /// The line to print (without the `sparsecache: ` prefix), or nil when the limit fits in what
    /// the store holds plus the volume's free space, or the volume does not say.
    static func text(limit: UInt64, directory: String, cachedBytes: UInt64) -> String? {
        guard let free = freeBytes(directory) else { return nil }
        let room = free.addingReportingOverflow(cachedBytes)
        guard !room.overflow, limit > room.partialValue else { return nil }
        return "warning: --max-size \(ByteCountText.text(limit)) is more than \(directory) can hold: its volume has "
            + "\(ByteCountText.text(free)) free (and the cache holds \(ByteCountText.text(cachedBytes))); "
            + "the cache stops growing when the volume runs short of space, before that limit"
    }

    /// The bytes an unprivileged process may still write on the volume of `path`.
    private static func freeBytes(_ path: String) -> UInt64? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        let (bytes, overflow) = UInt64(info.f_bavail).multipliedReportingOverflow(by: UInt64(info.f_frsize))
        return overflow ? nil : bytes
    }
}
