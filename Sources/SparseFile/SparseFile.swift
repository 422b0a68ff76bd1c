#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import Synchronization

/// One cached resource in one file: a sparse, checksummed, crash-safe store of any byte ranges
/// of the resource, with the metadata to serve them (Docs/FORMAT.md describes the bytes).
///
/// A `SparseFile` is shared by one writer and any number of readers in a process. Readers see
/// appended bytes as soon as ``write(_:at:)`` returns, before they are committed; a crash
/// loses only what was not committed, and every byte a reader gets has passed its XXH3 check.
///
/// ```swift
/// let file = try SparseFile.create(at: path, metadata: ResourceMetadata(key: url, contentLength: 1_000_000))
/// try file.write(chunk, at: 0)
/// try file.commit()
/// if case .bytes(let bytes) = try file.read(ByteRange(offset: 0, length: 1024)!) { ... }
/// ```
public final class SparseFile: Sendable {
    /// Whether a file is opened for reading only or by its single writer.
    public enum Mode: Sendable {
        case readOnly
        case readWrite
    }

    /// The path the file was opened at.
    public let path: String
    /// Whether this instance may write (it then holds the file's writer lock).
    public let isWritable: Bool
    let options: SparseFileOptions
    let state: Mutex<State>
    /// Serializes writers, commits and maintenance. Held during their I/O, never by readers.
    let writer: Mutex<WriterState>

    struct State {
        var descriptor: FileDescriptor? {
            didSet { descriptorGeneration &+= 1 }
        }
        /// Changes whenever `descriptor` does (compaction, close), so that file offsets handed
        /// out earlier can be told apart from those of the current file.
        var descriptorGeneration: UInt64 = 0
        var map: ExtentMap
        var metadata: ResourceMetadata {
            didSet { metadataRevision &+= 1 }
        }
        var metadataRevision: UInt64 = 0
        /// Every data byte written so far, committed or not.
        var dataEnd: UInt64
        var verified = BlockSet()
        var checksumPages = ChecksumPageCache()
        /// How to check a partial last block this process did not write.
        var committedTail: CommittedTail?
        /// The blocks before this one have their checksums stored in the file; those from it
        /// on (written since the last commit) have them only in the writer's memory.
        var checksummedBlocks: UInt64 = 0
        var generation: UInt64
        var activeSlot: Int
        var createdAt: UInt64
        var isSpilled: Bool
        /// Bumped by every change a commit must persist.
        var changeCount: UInt64 = 0
        var committedChangeCount: UInt64 = 0
        var corruptBlocksDetected: UInt64 = 0

        func openDescriptor() throws(SparseFileError) -> FileDescriptor {
            guard let descriptor else { throw .closed }
            return descriptor
        }

        /// The data offset of original bytes `range` when they lie in one extent whose blocks
        /// all passed their checksum in this process: a read or a send then needs no plan.
        func verifiedDataOffset(of range: ByteRange) -> UInt64? {
            guard !range.isEmpty, let extent = map.extent(covering: range) else { return nil }
            let data = extent.dataOffset(of: range.offset)
            let last = FileLayout.block(containing: data + range.length - 1)
            return verified.containsAll(from: FileLayout.block(containing: data), through: last) ? data : nil
        }
    }

    struct CommittedTail {
        var block: UInt64
        var length: Int
        var checksum: UInt64
    }

    struct SpillArea: Equatable {
        var offset: UInt64
        var capacity: UInt64
    }

    struct WriterState {
        /// The bytes of the partial last block, needed to checksum it at each commit.
        var tail: [UInt8] = []
        /// Checksums of blocks that filled up since the last commit, for consecutive blocks
        /// from `pendingFirstBlock` on.
        var pendingChecksums: [UInt64] = []
        var pendingFirstBlock: UInt64 = 0
        /// Each slot's spill area, reused while the compressed body fits.
        var spillAreas: [SpillArea?] = [nil, nil]
        var bytesSinceCommit: UInt64 = 0
        /// Original ranges of a damaged partial last block, dropped when the file was opened for
        /// writing; ``repair()`` reports them.
        var droppedAtOpen: [ByteRange] = []
    }

    init(path: String, isWritable: Bool, options: SparseFileOptions, state: State, writer: WriterState) {
        self.path = path
        self.isWritable = isWritable
        self.options = options
        self.state = Mutex(state)
        self.writer = Mutex(writer)
    }

    // MARK: Opening

    /// Creates a new, empty cache file at `path` and opens it for writing. Fails with
    /// `SparseFileError.Code.conflict` when a file already exists there.
    ///
    /// The file appears atomically: it is written under a temporary name, synchronized and
    /// linked into place, so a crash never leaves a half-made file at `path`.
    public static func create(
        at path: String, metadata: ResourceMetadata, options: SparseFileOptions = SparseFileOptions()
    ) throws(SparseFileError) -> SparseFile {
        try Self.validate(metadata, extents: [])
        let calls = options.systemCalls
        let temporary = Directory.temporarySibling(of: path, purpose: "new")
        defer { try? Directory.remove(temporary, calls: calls) }
        do throws(SparseFileError) {
            let descriptor = try FileDescriptor.open(temporary, flags: O_RDWR | O_CREAT | O_EXCL, calls: calls)
            try descriptor.write(try Self.initialSlot(for: metadata, descriptor: descriptor).encoded(), at: 0)
            try descriptor.write([UInt8](repeating: 0, count: FileLayout.slotSize), at: FileLayout.slotFileOffset(1))
            // The header must be durable before the name can be: a power loss then leaves either
            // no file or a valid one. Making the name itself durable is only promised by `.full`.
            if options.durability != .none { try descriptor.synchronize() }
            try Directory.linkWithoutReplacing(temporary, at: path, calls: calls)
            if options.durability == .full { try Directory.synchronize(Directory.parent(of: path), calls: calls) }
        } catch {
            throw error.at(path)
        }
        return try open(at: path, mode: .readWrite, expectedKey: metadata.key, options: options)
    }

    /// The first header of a new file. Metadata too large for the slot (a long key) goes to a
    /// spill area at the start of the data space, as later commits would put it.
    private static func initialSlot(for metadata: ResourceMetadata, descriptor: FileDescriptor) throws(SparseFileError) -> HeaderSlot {
        let body = HeaderBody(metadata: metadata, extents: []).encoded()
        var slot = HeaderSlot(
            slotIndex: 0, generation: 1, dataEnd: 0, contentLength: metadata.contentLength,
            cachedBytes: 0, extentCount: 0, tailChecksum: 0, storage: .inline,
            storedBodyLength: UInt64(body.count), bodyLength: UInt64(body.count),
            bodyChecksum: Checksum.of(body), createdAt: WallClock.milliseconds(), inlineBody: body)
        guard body.count > HeaderSlot.inlineCapacity else { return slot }
        guard let compressed = Zlib.compress(body) else {
            throw SparseFileError(.ioFailure, "zlib could not compress the header body")
        }
        let capacity = FileLayout.alignUp(UInt64(compressed.count))
        try compressed.withBytes { bytes throws(SparseFileError) in try DataSpace(descriptor: descriptor).write(bytes, at: 0) }
        slot.storage = .spilled(offset: 0, capacity: capacity)
        slot.dataEnd = capacity
        slot.storedBodyLength = UInt64(compressed.count)
        slot.bodyChecksum = Checksum.of(compressed)
        slot.inlineBody = []
        return slot
    }

    /// Opens an existing cache file.
    ///
    /// - Parameters:
    ///   - expectedKey: when given, a file holding another key fails with
    ///     `SparseFileError.Code.keyMismatch` (a hash collision in a store is a miss, never
    ///     someone else's bytes).
    /// - Throws: `SparseFileError.Code.notACacheFile`, `SparseFileError.Code.unsupportedVersion`,
    ///   `SparseFileError.Code.corruptHeader` when neither header slot is valid, and
    ///   `SparseFileError.Code.lockedByAnotherWriter` for a second writer.
    public static func open(
        at path: String, mode: Mode = .readOnly, expectedKey: String? = nil,
        options: SparseFileOptions = SparseFileOptions()
    ) throws(SparseFileError) -> SparseFile {
        do throws(SparseFileError) {
            let flags = mode == .readWrite ? O_RDWR : O_RDONLY
            let descriptor = try FileDescriptor.open(path, flags: flags, calls: options.systemCalls)
            if mode == .readWrite { try descriptor.lockForWriting() }
            let loaded = try HeaderLoader(descriptor: descriptor, maximumBodyLength: options.maximumBodyLength).load()
            if let expectedKey, loaded.body.metadata.key != expectedKey {
                throw SparseFileError(.keyMismatch, "file holds key \"\(loaded.body.metadata.key)\", not \"\(expectedKey)\"")
            }
            let (state, writer) = Self.initialState(descriptor: descriptor, loaded: loaded)
            let file = SparseFile(path: path, isWritable: mode == .readWrite, options: options, state: state, writer: writer)
            if mode == .readWrite {
                try file.prepareForWriting(otherSlot: loaded.otherSlot)
            }
            return file
        } catch {
            throw error.at(path)
        }
    }

    /// Opens the file for writing, creating it with `metadata` when it does not exist.
    public static func openOrCreate(
        at path: String, metadata: ResourceMetadata, options: SparseFileOptions = SparseFileOptions()
    ) throws(SparseFileError) -> SparseFile {
        do throws(SparseFileError) {
            return try open(at: path, mode: .readWrite, expectedKey: metadata.key, options: options)
        } catch where error.errno == ENOENT {
            do {
                return try create(at: path, metadata: metadata, options: options)
            } catch where error.code == .conflict {
                return try open(at: path, mode: .readWrite, expectedKey: metadata.key, options: options)
            }
        }
    }

    private static func initialState(descriptor: FileDescriptor, loaded: HeaderLoader.Loaded) -> (State, WriterState) {
        let slot = loaded.slot
        var tail: CommittedTail?
        let tailLength = Int(slot.dataEnd % FileLayout.blockSize)
        if tailLength > 0 {
            tail = CommittedTail(block: FileLayout.block(containing: slot.dataEnd), length: tailLength, checksum: slot.tailChecksum)
        }
        var spilled = false
        var writer = WriterState()
        if case .spilled(let offset, let capacity) = slot.storage {
            spilled = true
            writer.spillAreas[slot.slotIndex] = SpillArea(offset: offset, capacity: capacity)
        }
        let state = State(
            descriptor: descriptor, map: ExtentMap(loaded.body.extents), metadata: loaded.body.metadata,
            dataEnd: slot.dataEnd, committedTail: tail, checksummedBlocks: FileLayout.block(containing: slot.dataEnd),
            generation: slot.generation, activeSlot: slot.slotIndex, createdAt: slot.createdAt, isSpilled: spilled)
        return (state, writer)
    }

    // MARK: What the file holds

    /// The resource metadata as last set (committed or not).
    public var metadata: ResourceMetadata { state.withLock { $0.metadata } }
    /// Changes whenever ``metadata`` does in this instance: what a caller derived from the
    /// metadata stays valid while this value stays the same.
    public var metadataRevision: UInt64 { state.withLock { $0.metadataRevision } }
    /// The cache key.
    public var key: String { metadata.key }
    /// The resource's total length, when known.
    public var contentLength: UInt64? { metadata.contentLength }
    /// The cached original ranges, sorted, with touching ranges merged.
    public var cachedRanges: [ByteRange] { state.withLock { $0.map.mergedRanges } }
    /// How many bytes of the resource are cached.
    public var cachedByteCount: UInt64 { state.withLock { $0.map.cachedBytes } }
    /// How many extents the range table holds (touching ranges stored apart count separately).
    public var extentCount: Int { state.withLock { $0.map.count } }
    /// Whether every byte of a resource of known length is cached.
    public var isComplete: Bool {
        state.withLock { state in
            guard let length = state.metadata.contentLength else { return false }
            return state.map.cachedBytes == length
        }
    }
    /// The sub-ranges of `range` that are not cached, sorted.
    public func missingRanges(in range: ByteRange) -> [ByteRange] {
        state.withLock { $0.map.missingRanges(in: range) }
    }
    /// How many bytes are cached contiguously from `offset` on (0 when `offset` is not cached).
    public func cachedLength(from offset: UInt64) -> UInt64 {
        state.withLock { $0.map.contiguousLength(from: offset) }
    }
    /// Whether changes wait for a ``commit()``.
    public var hasUncommittedChanges: Bool { state.withLock { $0.changeCount != $0.committedChangeCount } }
    /// How many corrupt blocks reads have detected (and dropped) since the file was opened.
    public var corruptBlocksDetected: UInt64 { state.withLock { $0.corruptBlocksDetected } }

    /// Facts about the committed header, for inspection tools.
    public struct HeaderInfo: Sendable, Hashable {
        public var formatVersion: Int
        public var generation: UInt64
        public var activeSlot: Int
        public var dataEnd: UInt64
        public var createdAt: UInt64
        public var isTableSpilled: Bool
        public var extentCount: Int
        public var fileSize: UInt64
    }

    public var headerInfo: HeaderInfo {
        get throws(SparseFileError) {
            let (snapshot, descriptor) = try state.withLock { state throws(SparseFileError) in
                (state, try state.openDescriptor())
            }
            return HeaderInfo(
                formatVersion: Int(HeaderSlot.formatVersion), generation: snapshot.generation,
                activeSlot: snapshot.activeSlot, dataEnd: snapshot.dataEnd, createdAt: snapshot.createdAt,
                isTableSpilled: snapshot.isSpilled, extentCount: snapshot.map.count,
                fileSize: try descriptor.size())
        }
    }

    /// The extents as stored, in original order: `(original range, data offset)`.
    public var storedExtents: [(range: ByteRange, dataOffset: UInt64)] {
        state.withLock { $0.map.extents.map { ($0.originalRange, $0.data) } }
    }

    /// Commits pending changes (when writable) and closes the file. Readers that are in the
    /// middle of a read finish it; later calls fail with `SparseFileError.Code.closed`.
    public func close() throws(SparseFileError) {
        defer { state.withLock { $0.descriptor = nil } }
        if isWritable && hasUncommittedChanges { try commit() }
    }
}

extension SparseFile {
    /// The bytes the file occupies on disk (allocated blocks; holes are free), which is what a
    /// store counts against its size limit.
    public var allocatedBytes: UInt64 {
        get throws(SparseFileError) {
            let descriptor = try state.withLock { state throws(SparseFileError) in try state.openDescriptor() }
            return try descriptor.status().allocatedBytes
        }
    }
}
