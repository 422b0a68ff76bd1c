#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The wall clock the format and the store record times with.
package enum WallClock {
    /// Milliseconds since 1970.
    package static func milliseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return UInt64(clamping: time.tv_sec) * 1000 + UInt64(clamping: time.tv_nsec) / 1_000_000
    }
}
