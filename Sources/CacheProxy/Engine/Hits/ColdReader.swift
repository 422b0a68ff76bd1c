import NIOPosix
import SparseFile

/// Reads cached bytes that are not in memory on threads of their own, so that an event loop
/// never waits for the disk: while one connection's bytes come from the disk, the other
/// connections of its loop go on being served.
///
/// A file's pages leave memory when the kernel reclaims the page cache (on a phone, whenever
/// memory is short; on a server, under a `pageout` policy or a large working set). Reading them
/// back inside `sendfile`, through a mapping or with `pread` on an event loop would stall every
/// connection of that loop for as long as the disk takes (Docs/PROXY.md, "Cold reads").
///
/// Bytes found out of memory, and those around them that the kernel may read with them, are
/// checked against their checksums again before they are served
/// (``SparseFile/requireVerificationAgain(within:)``): what comes back from the disk may differ
/// from what was verified in memory. A block that fails is dropped from the cache and fetched
/// again, never served.
final class ColdReader: Sendable {
    private let pool: NIOThreadPool?
    private let counters: ProxyCounters
    private let metrics: ProxyMetrics?
    /// Whether bytes not in memory are read on threads of their own (a stored flag: every hit
    /// asks, and looking at `pool` would retain and release it).
    let isEnabled: Bool

    /// `threads` threads of their own, none (reads stay on the event loops) when 0.
    init(threads: Int, counters: ProxyCounters, metrics: ProxyMetrics?) {
        self.counters = counters
        self.metrics = metrics
        isEnabled = threads > 0
        guard threads > 0 else {
            pool = nil
            return
        }
        let pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
        self.pool = pool
    }

    /// Whether reading or sending cached `bytes` of `file` would wait for the disk, and so must
    /// be read with ``read(_:of:)`` first; they and the ``readAheadMargin`` after them are then
    /// verified again as they are read. Always false when disabled.
    func mustRead(_ bytes: ByteRange, of file: SparseFile) -> Bool {
        guard isEnabled, file.pageCacheResidency(of: bytes) == .onDisk else { return false }
        let (end, overflow) = bytes.end.addingReportingOverflow(Self.readAheadMargin)
        if let window = ByteRange(from: bytes.offset, to: overflow ? UInt64.max : end) {
            file.requireVerificationAgain(within: window)
        }
        return true
    }

    /// How far past bytes read back from the disk the bytes after them are verified again: the
    /// kernel reads ahead of a read, up to the disk's `read_ahead_kb` (128 KiB by default, 8 MiB
    /// on the benchmarks' machine). The read is a `pread` on a cold-read thread, never a page
    /// fault, so nothing before the bytes comes in with them; and what was verified before stays
    /// so, which keeps streams behind a cold read on `sendfile`.
    static let readAheadMargin: UInt64 = 32 << 20

    /// Reads cached `bytes` of `file` on a thread of the pool, which brings their pages back
    /// into memory, and verifies them (no copy is kept: they are then sent with `sendfile`);
    /// false when some byte is not cached (or failed its check and was dropped).
    func read(_ bytes: ByteRange, of file: SparseFile) async throws -> Bool {
        let verify: @Sendable () throws -> Bool = { try file.verify(bytes) == .complete }
        let verified = if let pool { try await pool.runIfActive(verify) } else { try verify() }
        if verified {
            counters.recordColdRead(bytes.length)
            metrics?.recordColdRead(bytes.length)
        }
        return verified
    }

    /// Stops the threads once the reads queued are done.
    func shutdown() async {
        try? await pool?.shutdownGracefully()
    }
}
