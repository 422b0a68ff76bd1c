#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A tmpfs of a few MiB mounted at a fresh directory while the value lives: a disk that really
/// fills up. Mounting needs root (CAP_SYS_ADMIN); tests check ``isAvailable`` and skip, saying
/// why, where it is not.
public final class SmallFilesystem: Sendable {
    public let path: String

    /// Whether this process can mount a tmpfs (tried once).
    public static let isAvailable: Bool = (try? SmallFilesystem(megabytes: 1)) != nil

    public init(megabytes: Int) throws {
        path = FileManager.default.temporaryDirectory.path + "/small-fs-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        #if os(Linux)
        guard mount("tmpfs", path, "tmpfs", 0, "size=\(megabytes)m") == 0 else {
            let error = errno
            rmdir(path)
            throw POSIXError(POSIXErrorCode(rawValue: error) ?? .EPERM)
        }
        #else
        rmdir(path)
        throw POSIXError(.ENOTSUP)
        #endif
    }

    deinit {
        #if os(Linux)
        umount2(path, Int32(MNT_DETACH))
        #endif
        rmdir(path)
    }
}
