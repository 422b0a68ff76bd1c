#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

extension SparseFile {
    private static let pageSize = UInt64(max(sysconf(Int32(_SC_PAGESIZE)), 4096))

    /// Whether the cached bytes of original `range` are all in the page cache now, so that
    /// reading or sending them waits for no disk; bytes of `range` not cached are not asked about.
    ///
    /// One `cachestat` per contiguous run of the file (one for a range written in order); its
    /// cost grows with the pages asked about (about 0.8 µs for 64 KiB, 14 µs for 2 MB on the
    /// machine of Docs/BENCHMARKS.md), so a caller serving the same bytes often remembers the
    /// answer for a while. The answer can be stale by the time it is used: the kernel may
    /// reclaim a page at any moment.
    public func pageCacheResidency(of range: ByteRange) -> PageCacheResidency {
        let found = state.withLock { state -> (FileDescriptor, [(UInt64, UInt64)])? in
            guard let descriptor = state.descriptor else { return nil }
            var spans: [(UInt64, UInt64)] = []
            state.map.walk(range, present: { piece, data in
                Self.appendFileSpans(ofData: data, length: piece.length, to: &spans)
            }, missing: { _ in })
            return (descriptor, spans)
        }
        // The descriptor object stays open while `found` holds it.
        guard let (descriptor, spans) = found else { return .unknown }
        let page = Self.pageSize
        for (offset, length) in spans {
            let first = offset / page * page
            let pages = (offset + length - first + page - 1) / page
            let cached = options.systemCalls.cachedPages(descriptor.rawValue, first, pages * page)
            guard cached >= 0 else { return .unknown }
            if UInt64(cached) < pages { return .onDisk }
        }
        return .inMemory
    }

    /// Makes the blocks holding cached bytes of original `range` count as not verified, so that
    /// each is checked again the next time it is read, before any of its bytes is served (until
    /// then ``verifiedRun(for:)`` and ``verifiedRegion(for:)`` do not give it out): for bytes
    /// whose pages left memory (``pageCacheResidency(of:)``) and those around them. They come
    /// back from the disk, which may have changed them since they were verified, whether this
    /// process reads them or the kernel reads them ahead of its reads (megabytes at a time).
    /// Blocks appended since the last commit stay verified: their checksums are only in the
    /// writer's memory.
    public func requireVerificationAgain(within range: ByteRange) {
        state.withLock { state in
            var blocks: [(UInt64, UInt64)] = []
            state.map.walk(range, present: { piece, data in
                blocks.append((FileLayout.block(containing: data), FileLayout.block(containing: data + piece.length - 1)))
            }, missing: { _ in })
            for (first, last) in blocks {
                let stored = min(last, state.checksummedBlocks &- 1)
                if state.checksummedBlocks > 0, first <= stored {
                    state.verified.remove(blocksFrom: first, through: stored)
                }
                if let tail = state.committedTail, first <= tail.block, tail.block <= last { state.verified.remove(tail.block) }
            }
        }
    }
}
