#if canImport(Glibc)
import Glibc
#endif
import Synchronization
@testable import SparseFile

/// System calls that fail on demand: a disk that fills up at a given file size, or fails
/// `fdatasync` with EIO.
final class FaultInjector: Sendable {
    struct Faults {
        var diskLimit: Int64 = .max
        var failSyncs = false
    }

    let faults = Mutex(Faults())

    func setDiskLimit(_ limit: Int64) { faults.withLock { $0.diskLimit = limit } }
    func setFailSyncs(_ fail: Bool) { faults.withLock { $0.failSyncs = fail } }

    var calls: SystemCalls {
        SystemCalls(
            pread: { fd, buffer, count, offset in Glibc.pread(fd, buffer, count, off_t(offset)) },
            pwrite: { [self] fd, buffer, count, offset in
                let limit = faults.withLock { $0.diskLimit }
                guard offset < limit else { errno = ENOSPC; return -1 }
                // Like a real full disk: a write that crosses the limit is cut short.
                let allowed = Int(min(Int64(count), limit - offset))
                return Glibc.pwrite(fd, buffer, allowed, off_t(offset))
            },
            fdatasync: { [self] fd in
                if faults.withLock({ $0.failSyncs }) { errno = EIO; return -1 }
                return Glibc.fdatasync(fd)
            },
            ftruncate: { fd, length in Glibc.ftruncate(fd, off_t(length)) })
    }
}
