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
/// as every hit did before cold reads, and serves them without checking them again. The file is
/// known by its identity alone (a weak reference would cost a hit more than the rest of this):
/// a file freed and another made at its address within that second inherit what was seen,
/// with the same consequence at worst.
struct ResidencyMemo {
    static let pieceSize: UInt64 = 64 * 1024
    static let lifetime: UInt64 = 1_000_000_000
    /// Pieces past this many words' worth (64 pieces each: 16 GiB) are never remembered.
    static let maximumWords = 4096

    /// Asks the kernel, and reads what is not in memory; nil when cold reads are off (bytes
    /// then count as in memory, and nothing is asked).
    private let coldReader: ColdReader?
    private let isEnabled: Bool
    private var file: ObjectIdentifier?
    /// When the pieces were first remembered, by the coarse monotonic clock.
    private var since: UInt64 = 0
    private var seen: [UInt64] = []

    init(coldReader: ColdReader) {
        self.coldReader = coldReader.isEnabled ? coldReader : nil
        isEnabled = coldReader.isEnabled
    }

    /// Whether cached `bytes` of the file known as `file` were all seen in memory within the
    /// last second, or need not be asked about (cold reads are off). Touches no object: a file's
    /// retain and release cost more than this whole check (the store's weak references to files
    /// send them down the runtime's slow path).
    mutating func sawInMemory(_ bytes: ByteRange, of file: ObjectIdentifier) -> Bool {
        guard isEnabled, !bytes.isEmpty else { return true }
        let now = Self.coarseNanoseconds()
        guard self.file == file, now &- since <= Self.lifetime else {
            self.file = file
            since = now
            seen.removeAll(keepingCapacity: true)
            return false
        }
        return isSeen(bytes.offset / Self.pieceSize...(bytes.end - 1) / Self.pieceSize)
    }

    /// Whether cached `bytes` of `file` are in memory, so that writing or sending them waits for
    /// no disk (true too when the system cannot tell), asking the kernel: after
    /// ``sawInMemory(_:of:)`` said no.
    mutating func isInMemory(_ bytes: ByteRange, of file: SparseFile) -> Bool {
        guard let coldReader, !bytes.isEmpty else { return true }
        let first = bytes.offset / Self.pieceSize
        let last = (bytes.end - 1) / Self.pieceSize
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
