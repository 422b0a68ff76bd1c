#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CacheStore
@_spi(CustomByteBufferAllocator) import NIOCore
import SparseFile
import Synchronization

/// Cache files mapped into memory, so that a hit is written to the socket straight from the
/// mapping: one copy, into the socket, with the response head in the same `writev`.
///
/// On loopback, where a player on the same device reads the proxy, this is faster than
/// `sendfile`, for whole segments and for ranges alike (Docs/BENCHMARKS.md, "Whole segments
/// against Varnish": `sendfile` splices the file's page-cache pages into the socket a pipe's
/// worth at a time, and reading the body into a buffer first costs a second copy of every
/// byte). Varnish serves from memory the same way.
///
/// What may be mapped: files complete and committed (so that nothing in the process truncates
/// them below a mapped byte) whose whole content lies in one run; only their data is mapped.
/// Only bytes verified in this process are served, as with `sendfile`: each hit checks its
/// own, so neither a file this process has read only parts of (a large one, or any after a
/// restart) nor one some of whose blocks must be verified again (after a cold read) is kept
/// from its mapping. A response larger than a quarter of ``limit`` goes out with `sendfile`.
///
/// What a mapping costs is the pages it brings into the process's resident set (the page
/// cache's pages, which the kernel may reclaim, but which count in `RssFile`). Each mapping
/// counts the 64 KiB pieces written from it since it was made: an upper bound of those pages.
/// When the mappings together would pass ``limit``, the least recently used go, and a mapping
/// past it on its own is made anew (its pages leave the resident set with it). A
/// mapping is also dropped when its file leaves the store, so an evicted file's blocks are freed
/// once the responses written from it are sent: a `ByteBuffer` made from a mapping keeps it
/// until then (`MappedBufferLedger`).
final class MappedCacheFiles: Sendable {
    /// The resident bytes all mappings may bring in together; 0 maps nothing.
    let limit: Int
    /// The most mappings at once (each holds address space and a descriptor's worth of kernel state).
    static let maximumCount = 256

    private struct State {
        /// By the file's identity; `file` is compared too, so a recycled identifier never matches.
        var mappings: [ObjectIdentifier: Mapping] = [:]
        /// The sum of the mappings' `resident`.
        var residentBytes = 0
        /// The store's entries revision when the mappings were last checked against it.
        var checkedRevision: UInt64 = .max
        var useCounter: UInt64 = 0
        /// `useCounter` at the last ``releaseIdle()``: a mapping last used at or before it has
        /// not been used since.
        var idleMark: UInt64 = 0

        mutating func remove(_ mapping: Mapping) {
            guard mappings[ObjectIdentifier(mapping.file)] === mapping else { return }
            mappings[ObjectIdentifier(mapping.file)] = nil
            residentBytes -= mapping.resident
        }
    }

    private let state = Mutex(State())

    init(limit: Int) {
        self.limit = limit
    }

    /// Original bytes `bytes` of `file` (the store's file for `key`), in a buffer over the
    /// file's mapping, when they are verified, in one run, and the file may be mapped; nil
    /// otherwise.
    func buffer(for bytes: ByteRange, of file: SparseFile, key: String, store: CacheStore) -> ByteBuffer? {
        guard limit > 0, bytes.length <= UInt64(limit / 4), let run = file.verifiedRun(for: bytes),
              let start = Int(exactly: run.fileOffset), let count = Int(exactly: bytes.length)
        else { return nil }
        dropRemoved(from: store)
        for _ in 0..<2 {
            let (found, retired) = state.withLock { state -> (Mapping?, [Mapping]) in
                guard let mapping = state.mappings[ObjectIdentifier(file)], mapping.file === file,
                      mapping.descriptorGeneration == run.descriptorGeneration else { return (nil, []) }
                if mapping.resident + count > limit {
                    // Past the limit on its own: made anew, its pages leave with the old one.
                    state.remove(mapping)
                    return (nil, [mapping])
                }
                return (mapping, account(count, at: start, to: mapping, in: &state))
            }
            for mapping in retired { MappedBufferLedger.retire(mapping) }
            guard let mapping = found ?? map(file, key: key, serving: bytes, generation: run.descriptorGeneration, count: count, at: start)
            else { return nil }
            guard start >= mapping.fileOffset, start - mapping.fileOffset <= mapping.length - count else { return nil }
            // nil only when another connection retired the mapping meanwhile: look again.
            if let buffer = MappedBufferLedger.buffer(over: mapping, offset: start - mapping.fileOffset, count: count) {
                return buffer
            }
        }
        return nil
    }

    /// Counts `count` bytes at file offset `start` written from `mapping`, and takes out the
    /// least recently used other mappings while all of them together pass the limit. What it
    /// took out, to retire.
    private func account(_ count: Int, at start: Int, to mapping: Mapping, in state: inout State) -> [Mapping] {
        if start >= mapping.fileOffset, start - mapping.fileOffset <= mapping.length - count {
            state.residentBytes += mapping.touch(count, at: start - mapping.fileOffset)
        }
        state.useCounter &+= 1
        mapping.lastUse = state.useCounter
        guard state.residentBytes > limit || state.mappings.count > Self.maximumCount else { return [] }
        var taken: [Mapping] = []
        for oldest in state.mappings.values.sorted(by: { $0.lastUse < $1.lastUse }) where oldest !== mapping {
            guard state.residentBytes > limit || state.mappings.count > Self.maximumCount else { break }
            state.remove(oldest)
            taken.append(oldest)
        }
        return taken
    }

    /// Unmaps every mapping of a file the store no longer holds, once its buffers are gone.
    /// Cheap when the store's entries did not change since the last call.
    func dropRemoved(from store: CacheStore) {
        let revision = store.entriesRevision
        let candidates = state.withLock { state -> [Mapping] in
            guard state.checkedRevision != revision else { return [] }
            state.checkedRevision = revision
            return Array(state.mappings.values)
        }
        let removed = candidates.filter { store.reader(for: $0.key).file !== $0.file }
        guard !removed.isEmpty else { return }
        state.withLock { state in
            for mapping in removed { state.remove(mapping) }
        }
        for mapping in removed { MappedBufferLedger.retire(mapping) }
    }

    /// Unmaps the mappings no hit used since the last call, once their buffers are gone. Called
    /// every ``CacheProxyConfiguration/MappedFiles/idleRelease``, it lets a file's pages leave
    /// the resident set between one and two periods after its last hit; the count of uses
    /// marks time, so a hit reads no clock.
    func releaseIdle() {
        let idle = state.withLock { state -> [Mapping] in
            defer { state.idleMark = state.useCounter }
            let idle = state.mappings.values.filter { $0.lastUse <= state.idleMark }
            for mapping in idle { state.remove(mapping) }
            return idle
        }
        for mapping in idle { MappedBufferLedger.retire(mapping) }
    }

    /// ``releaseIdle()`` every `period` until the task is cancelled.
    func releaseIdle(every period: Duration) async {
        guard limit > 0, period > .zero else { return }
        while (try? await Task.sleep(for: period)) != nil { releaseIdle() }
    }

    /// Unmaps everything once the buffers made from it are gone (the proxy stopped).
    func dropAll() {
        let all = state.withLock { state -> [Mapping] in
            defer {
                state.mappings = [:]
                state.residentBytes = 0
            }
            return Array(state.mappings.values)
        }
        for mapping in all { MappedBufferLedger.retire(mapping) }
    }

    /// Maps the data of `file` when it qualifies, and counts `count` bytes at file offset `start`
    /// (verified original bytes `bytes`) written from it. The data of a file written in order
    /// lies in one run after its header and checksums (Docs/FORMAT.md); only that run, from the
    /// page holding its first byte, is mapped. The rest of it need not be verified: what is
    /// written from the mapping is checked hit by hit (``buffer(for:of:key:store:)``).
    private func map(_ file: SparseFile, key: String, serving bytes: ByteRange, generation: UInt64, count: Int, at start: Int) -> Mapping? {
        guard file.isComplete, !file.hasUncommittedChanges, let contentLength = file.contentLength,
              let whole = ByteRange(offset: 0, length: contentLength),
              let run = file.cachedRun(for: whole), run.descriptorGeneration == generation,
              let region = file.verifiedRegion(for: bytes), region.descriptorGeneration == generation
        else { return nil }
        let descriptor = region.takeDescriptor()
        defer { close(descriptor) }
        let page = UInt64(sysconf(Int32(_SC_PAGESIZE)))
        let windowStart = run.fileOffset / page * page
        var status = stat()
        guard fstat(descriptor, &status) == 0, let fileOffset = Int(exactly: windowStart),
              let length = Int(exactly: run.fileOffset + contentLength - windowStart),
              status.st_size >= off_t(fileOffset + length),
              let address = mmap(nil, length, PROT_READ, MAP_SHARED, descriptor, off_t(fileOffset)), address != MAP_FAILED
        else { return nil }
        let mapping = Mapping(file: file, key: key, descriptorGeneration: generation, address: address, fileOffset: fileOffset, length: length)
        let (kept, retired) = state.withLock { state -> (Mapping, [Mapping]) in
            // Another connection may have mapped it meanwhile: keep one.
            if let existing = state.mappings[ObjectIdentifier(file)], existing.file === file,
               existing.descriptorGeneration == generation, existing.resident + count <= limit {
                return (existing, [mapping] + account(count, at: start, to: existing, in: &state))
            }
            var retired: [Mapping] = []
            if let stale = state.mappings[ObjectIdentifier(file)] {
                state.remove(stale)
                retired.append(stale)
            }
            state.mappings[ObjectIdentifier(file)] = mapping
            return (mapping, retired + account(count, at: start, to: mapping, in: &state))
        }
        for old in retired { MappedBufferLedger.retire(old) }
        return kept
    }
}
