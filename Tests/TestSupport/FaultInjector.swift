#if canImport(Glibc)
import Glibc
#endif
import Synchronization
package import SparseFile

/// System calls that fail on demand: a disk that fills up at a given file size, or fails
/// `fdatasync` with EIO.
public final class FaultInjector: Sendable {
    public init() {}

    private struct Faults {
        var diskLimit: Int64 = .max
        var failSyncs = false
    }

    private let faults = Mutex(Faults())

    public func setDiskLimit(_ limit: Int64) { faults.withLock { $0.diskLimit = limit } }
    public func setFailSyncs(_ fail: Bool) { faults.withLock { $0.failSyncs = fail } }

    package var calls: SystemCalls {
        var calls = SystemCalls.live
        calls.pwrite = { [self] fd, buffer, count, offset in
            let limit = faults.withLock { $0.diskLimit }
            guard offset < limit else { errno = ENOSPC; return -1 }
            // Like a real full disk: a write that crosses the limit is cut short.
            let allowed = Int(min(Int64(count), limit - offset))
            return SystemCalls.live.pwrite(fd, buffer, allowed, offset)
        }
        calls.fdatasync = { [self] fd in
            if faults.withLock({ $0.failSyncs }) { errno = EIO; return -1 }
            return SystemCalls.live.fdatasync(fd)
        }
        return calls
    }
}
