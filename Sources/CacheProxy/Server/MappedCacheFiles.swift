#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CacheStore
@_spi(CustomByteBufferAllocator) import NIOCore
import SparseFile
import Synchronization

/// Small cache files mapped into memory, so that a hit on them is written to the socket
/// straight from the mapping: one copy, into the socket, with the response head in the same
/// `writev`.
///
/// On loopback, where a player on the same device reads the proxy, this is faster than
/// `sendfile` for whole segments (Docs/BENCHMARKS.md, "Whole segments against Varnish":
/// `sendfile` splices the file's page-cache pages into the socket a pipe's worth at a time,
/// and reading the body into a buffer first costs a second copy of every byte). Varnish serves
/// from memory the same way.
///
/// What may be mapped: files of at most ``largestFile`` bytes, complete and committed (so that
/// nothing in the process truncates them below a mapped byte), and only while the mappings
/// together stay within ``limit`` bytes; a hit that does not qualify goes out with `sendfile`.
/// Only bytes verified in this process are served from a mapping, as with `sendfile`. A mapping
/// is dropped when its file leaves the store, so an evicted file's blocks are freed once the
/// responses written from it are sent; it lives on until then, because a `ByteBuffer` made from
/// it holds it (`MappedBufferLedger`).
final class MappedCacheFiles: Sendable {
    /// The bytes all mappings may take together; 0 maps nothing.
    let limit: Int
    /// The largest file mapped.
    let largestFile: Int

    private struct State {
        /// By the file's identity; `file` is compared too, so a recycled identifier never matches.
        var mappings: [ObjectIdentifier: Mapping] = [:]
        var mappedBytes = 0
        /// The store's entries revision when the mappings were last checked against it.
        var checkedRevision: UInt64 = .max
        var useCounter: UInt64 = 0
    }

    private let state = Mutex(State())

    init(limit: Int, largestFile: Int) {
        self.limit = limit
        self.largestFile = largestFile
    }

    /// Original bytes `bytes` of `file` (the store's file for `key`), in a buffer over the
    /// file's mapping, when they are verified, in one run, and the file may be mapped; nil
    /// otherwise.
    func buffer(for bytes: ByteRange, of file: SparseFile, key: String, store: CacheStore) -> ByteBuffer? {
        guard limit > 0, let run = file.verifiedRun(for: bytes), let start = Int(exactly: run.fileOffset),
              let count = Int(exactly: bytes.length)
        else { return nil }
        dropRemoved(from: store)
        let found = state.withLock { state -> Mapping? in
            guard let mapping = state.mappings[ObjectIdentifier(file)], mapping.file === file,
                  mapping.descriptorGeneration == run.descriptorGeneration else { return nil }
            state.useCounter &+= 1
            mapping.lastUse = state.useCounter
            return mapping
        }
        guard let mapping = found ?? map(file, key: key, generation: run.descriptorGeneration),
              start >= mapping.fileOffset, start - mapping.fileOffset <= mapping.length - count
        else { return nil }
        return MappedBufferLedger.buffer(over: mapping, offset: start - mapping.fileOffset, count: count)
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
            for mapping in removed where state.mappings[ObjectIdentifier(mapping.file)] === mapping {
                state.mappings[ObjectIdentifier(mapping.file)] = nil
                state.mappedBytes -= mapping.length
            }
        }
        for mapping in removed { MappedBufferLedger.retire(mapping) }
    }

    /// Unmaps everything once the buffers made from it are gone (the proxy stopped).
    func dropAll() {
        let all = state.withLock { state -> [Mapping] in
            defer {
                state.mappings = [:]
                state.mappedBytes = 0
            }
            return Array(state.mappings.values)
        }
        for mapping in all { MappedBufferLedger.retire(mapping) }
    }

    /// Maps the data of `file` when it qualifies, making room among the least recently used
    /// mappings. The data of a file written in order lies in one run after its header and
    /// checksums (Docs/FORMAT.md); only that run, from the page holding its first byte, is mapped.
    private func map(_ file: SparseFile, key: String, generation: UInt64) -> Mapping? {
        guard file.isComplete, !file.hasUncommittedChanges, let contentLength = file.contentLength,
              contentLength <= UInt64(min(largestFile, limit)), let whole = ByteRange(offset: 0, length: contentLength),
              let run = file.verifiedRun(for: whole), run.descriptorGeneration == generation,
              let region = file.verifiedRegion(for: whole), region.descriptorGeneration == generation
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
        let (kept, evicted) = state.withLock { state -> (Mapping?, [Mapping]) in
            // Another connection may have mapped it meanwhile: keep one.
            if let existing = state.mappings[ObjectIdentifier(file)], existing.file === file,
               existing.descriptorGeneration == generation {
                return (existing, [mapping])
            }
            var evicted: [Mapping] = []
            if let stale = state.mappings.removeValue(forKey: ObjectIdentifier(file)) {
                state.mappedBytes -= stale.length
                evicted.append(stale)
            }
            let byAge = state.mappings.values.sorted { $0.lastUse < $1.lastUse }
            var index = 0
            while state.mappedBytes + length > limit, index < byAge.count {
                let oldest = byAge[index]
                index += 1
                state.mappings[ObjectIdentifier(oldest.file)] = nil
                state.mappedBytes -= oldest.length
                evicted.append(oldest)
            }
            state.useCounter &+= 1
            mapping.lastUse = state.useCounter
            state.mappings[ObjectIdentifier(file)] = mapping
            state.mappedBytes += length
            return (mapping, evicted)
        }
        for old in evicted { MappedBufferLedger.retire(old) }
        return kept
    }
}
