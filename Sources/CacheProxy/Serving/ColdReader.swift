import CacheStore
import NIOCore
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
/// A file found with pages out of memory has every block checked against its checksum again
/// before it is served (``SparseFile/requireVerificationAgain()``): what comes back from the
/// disk may differ from what was verified in memory. A block that fails is dropped from the
/// cache and fetched again, never served.
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
    /// be read with ``read(_:from:allocator:)``; such a file's blocks are then all verified
    /// again as they are read. Always false when disabled.
    func mustRead(_ bytes: ByteRange, of file: SparseFile) -> Bool {
        guard isEnabled, file.pageCacheResidency(of: bytes) == .onDisk else { return false }
        file.requireVerificationAgain()
        return true
    }

    /// Cached `bytes`, read on a thread of the pool into a new buffer and verified; nil when
    /// some byte is not cached (or failed its check and was dropped).
    func read(_ bytes: ByteRange, from reader: EntryReader, allocator: ByteBufferAllocator) async throws -> ByteBuffer? {
        guard let count = Int(exactly: bytes.length) else { return nil }
        let read: @Sendable () throws -> ByteBuffer? = {
            var buffer = allocator.buffer(capacity: count)
            return try reader.read(into: &buffer, count: count, at: bytes.offset) ? buffer : nil
        }
        let buffer = if let pool { try await pool.runIfActive(read) } else { try read() }
        if buffer != nil {
            counters.recordColdRead(bytes.length)
            metrics?.recordColdRead(bytes.length)
        }
        return buffer
    }

    /// Stops the threads once the reads queued are done.
    func shutdown() async {
        try? await pool?.shutdownGracefully()
    }
}
