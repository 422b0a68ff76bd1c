#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SparseFile

/// What a connection found out about its file's pages: the 4 KiB pages of the resource seen in
/// the page cache within the last second. A hit first asks here, and asks the kernel
/// (``ColdReader/mustRead(_:of:)``, a `cachestat`: 0.8 µs for 64 KiB, 14 µs for 2 MB) only
/// when some page was not seen, so a player asking again for bytes it had, or many players each
/// on its connection for one segment, costs one question per range and second, not one per hit.
///
/// Only the pages holding the bytes asked for are asked about: a page beside them that nobody
/// reads is the first the kernel reclaims, and asking about it would send the hits on its
/// neighbours down the cold path for nothing. (In a file written in order, a page of the
/// resource is a page of the file; where an extent was written elsewhere, at most one page at
/// each end of a range holds bytes beside it.)
///
/// A page seen is trusted for at most ``lifetime``: if the kernel reclaims it within that time,
/// the next hit on it on this connection reads it from the disk on the event loop, as every hit
/// did before cold reads, and serves it without checking it again. The file is known by its
/// identity alone (a weak reference would cost a hit more than the rest of this): a file freed
/// and another made at its address within that second inherit what was seen, with the same
/// consequence at worst.
struct ResidencyMemo {
    static let pageSize: UInt64 = 4096
    static let lifetime: UInt64 = 1_000_000_000
    /// Pages past this many words' worth (64 pages each: 1 GiB) are never remembered: the
    /// memo of a connection stays within 32 KiB.
    static let maximumWords = 4096

    /// Asks the kernel, and reads what is not in memory; nil when cold reads are off (bytes
    /// then count as in memory, and nothing is asked).
    private let coldReader: ColdReader?
    /// Whether `coldReader` is there, as a flag: the check of every hit touches no object.
    private let isEnabled: Bool
    private var file: ObjectIdentifier?
    /// When the pages were first remembered, by the coarse monotonic clock.
    private var since: UInt64 = 0
    /// One bit per page of the resource.
    private var seen: [UInt64] = []

    init(coldReader: ColdReader) {
        self.coldReader = coldReader.isEnabled ? coldReader : nil
        isEnabled = coldReader.isEnabled
    }

    /// Whether the pages of cached `bytes` of the file known as `file` were all seen in memory
    /// within the last second, or need not be asked about (cold reads are off). Touches no
    /// object: a file's retain and release cost more than this whole check (the store's weak
    /// references to files send them down the runtime's slow path).
    mutating func sawInMemory(_ bytes: ByteRange, of file: ObjectIdentifier) -> Bool {
        guard isEnabled, !bytes.isEmpty else { return true }
        let now = Self.coarseNanoseconds()
        guard self.file == file, now &- since <= Self.lifetime else {
            self.file = file
            since = now
            seen.removeAll(keepingCapacity: true)
            return false
        }
        return Self.visit(Self.pages(of: bytes)) { word, mask in word < seen.count && seen[word] & mask == mask }
    }

    /// Whether cached `bytes` of `file` are in memory, so that writing or sending them waits for
    /// no disk (true too when the system cannot tell), asking the kernel: after
    /// ``sawInMemory(_:of:)`` said no.
    mutating func isInMemory(_ bytes: ByteRange, of file: SparseFile) -> Bool {
        guard let coldReader, !bytes.isEmpty else { return true }
        let pages = Self.pages(of: bytes)
        let end = (pages.upperBound + 1).multipliedReportingOverflow(by: Self.pageSize)
        let asked = ByteRange(from: pages.lowerBound * Self.pageSize, to: end.overflow ? bytes.end : end.partialValue) ?? bytes
        guard !coldReader.mustRead(asked, of: file) else { return false }
        guard pages.upperBound / 64 < UInt64(Self.maximumWords) else { return true }
        let words = Int(pages.upperBound / 64) + 1
        if seen.count < words { seen.append(contentsOf: repeatElement(0, count: words - seen.count)) }
        _ = Self.visit(pages) { word, mask in
            seen[word] |= mask
            return true
        }
        return true
    }

    private static func pages(of bytes: ByteRange) -> ClosedRange<UInt64> {
        bytes.offset / pageSize...(bytes.end - 1) / pageSize
    }

    /// Calls `body` with each word of the bitmap that `pages` fall in and the mask of those
    /// pages in it, while it returns true; whether it always did.
    private static func visit(_ pages: ClosedRange<UInt64>, _ body: (Int, UInt64) -> Bool) -> Bool {
        var page = pages.lowerBound
        while page <= pages.upperBound {
            let bit = page % 64
            let count = min(64 - bit, pages.upperBound - page + 1)
            let mask = (count == 64 ? UInt64.max : (1 << count) - 1) << bit
            guard let word = Int(exactly: page / 64), body(word, mask) else { return false }
            page += count
        }
        return true
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
