#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether another process writes a store: its writer holds an exclusive `flock` on `DIR/lock`,
/// so a shared one cannot be taken (and, when it can, it is let go at once).
enum StoreLockProbe {
    static func isHeld(_ directory: String) -> Bool {
        let descriptor = open(directory + "/lock", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return flock(descriptor, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK
    }
}
