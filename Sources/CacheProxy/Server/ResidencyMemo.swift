#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SparseFile

/// What a connection found out about its file's pages: the 64 KiB pieces of the resource seen
/// in the page cache within the last second. A hit first asks here, and asks the kernel
/// (``ColdReader/mustRead(_:of:)``, a `cachestat`: 0.8 µs for 64 KiB, 14 µs for 2 MB)
/// only for pieces not seen, so a player asking again for bytes it had, or many players each on
/// its connection for one segment, costs one question per piece and second, not one per hit.
///
/// A piece seen is trusted for at most ``lifetime``: if the kernel reclaims its pages within
/// that time, the next hit on it on this connection reads them from the disk on the event loop,
/// as every hit did before cold reads, and serves them without checking them again.
struct ResidencyMemo {
    static let pieceSize: UInt64 = 64 * 1024
    static let lifetime: UInt64 = 1_000_000_000
    /// Pieces past this many words' worth (64 pieces each: 16 GiB) are never remembered.
    static let maximumWords = 4096

    private weak var file: SparseFile?
    /// When the pieces were first remembered, by the coarse monotonic clock.
    private var since: UInt64 = 0
    private var seen: [UInt64] = []

    /// Whether cached `bytes` of `file` are in memory, so that writing or sending them waits for
    /// no disk (true too when the system cannot tell); `coldReader` answers for pieces not seen.
    mutating func isInMemory(_ bytes: ByteRange, of file: SparseFile, coldReader: ColdReader) -> Bool {
        guard !bytes.isEmpty else { return true }
        let first = bytes.offset / Self.pieceSize
        let last = (bytes.end - 1) / Self.pieceSize
        let now = Self.coarseNanoseconds()
        if self.file !== file || now &- since > Self.lifetime {
            self.file = file
            since = now
            seen.removeAll(keepingCapacity: true)
        } else if isSeen(first...last) {
            return true
        }
        // The whole pieces are asked about, so that every piece remembered was seen entire.
        let end = (last + 1).multipliedReportingOverflow(by: Self.pieceSize)
        let asked = ByteRange(from: first * Self.pieceSize, to: end.overflow ? bytes.end : end.partialValue) ?? bytes
        guard !coldReader.mustRead(asked, of: file) else { return false }
        remember(first...last)
        return true
    }

    private func isSeen(_ pieces: ClosedRange<UInt64>) -> Bool {
        for piece in pieces {
            let word = Int(piece / 64)
            guard word < seen.count, seen[word] & (1 << (piece % 64)) != 0 else { return false }
        }
        return true
    }

    private mutating func remember(_ pieces: ClosedRange<UInt64>) {
        for piece in pieces {
            guard piece / 64 < UInt64(Self.maximumWords) else { return }
            let word = Int(piece / 64)
            if word >= seen.count { seen.append(contentsOf: repeatElement(0, count: word + 1 - seen.count)) }
            seen[word] |= 1 << (piece % 64)
        }
    }

    /// A clock read costs a few nanoseconds (no system call): a hit reads one.
    private static func coarseNanoseconds() -> UInt64 {
        var time = timespec()
        #if canImport(Glibc)
        clock_gettime(CLOCK_MONOTONIC_COARSE, &time)
        #else
        clock_gettime(CLOCK_MONOTONIC_RAW_APPROX, &time)
        #endif
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
