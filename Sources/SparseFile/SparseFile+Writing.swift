extension SparseFile {
    /// Stores `bytes` as the original bytes starting at `offset`.
    ///
    /// Only the parts not already cached are written (bytes already present are kept, never
    /// written twice); they are appended to the data space and become visible to readers of this
    /// instance as soon as this returns. They survive a crash once committed: explicitly with
    /// ``commit()``, or automatically every ``SparseFileOptions/autoCommitInterval`` bytes.
    ///
    /// - Returns: how many bytes were newly stored.
    /// - Throws: `SparseFileError.Code.readOnly`, `SparseFileError.Code.conflict` for bytes past
    ///   the known content length, `SparseFileError.Code.diskFull` (nothing of this call is then
    ///   recorded, and everything stored before is kept).
    @discardableResult
    public func write(_ bytes: UnsafeRawBufferPointer, at offset: UInt64) throws(SparseFileError) -> UInt64 {
        guard isWritable else { throw SparseFileError(.readOnly, "cannot write: opened read-only", path: path) }
        guard let range = ByteRange(offset: offset, length: UInt64(bytes.count)) else {
            throw SparseFileError(.invalidArgument, "write range overflows", path: path)
        }
        guard !range.isEmpty else { return 0 }
        return try writer.withLock { writer throws(SparseFileError) in
            let (descriptor, gaps) = try state.withLock { state throws(SparseFileError) in
                if let length = state.metadata.contentLength, range.end > length {
                    throw SparseFileError(.conflict, "bytes \(range) lie past the content length \(length)", path: path)
                }
                return (try state.openDescriptor(), state.map.missingRanges(in: range))
            }
            var stored: UInt64 = 0
            for gap in gaps {
                let from = Int(gap.offset - offset)
                try append(UnsafeRawBufferPointer(rebasing: bytes[from..<from + Int(gap.length)]),
                           original: gap.offset, descriptor: descriptor, writer: &writer)
                stored += gap.length
            }
            writer.bytesSinceCommit += stored
            if let interval = options.autoCommitInterval, writer.bytesSinceCommit >= interval {
                try commitLocked(&writer)
            }
            return stored
        }
    }

    /// Stores the bytes of an array; see ``write(_:at:)-(UnsafeRawBufferPointer,_)``.
    @discardableResult
    public func write(_ bytes: [UInt8], at offset: UInt64) throws(SparseFileError) -> UInt64 {
        try bytes.withBytes { buffer throws(SparseFileError) in try write(buffer, at: offset) }
    }

    /// Appends `bytes` at the end of the data space, checksums every block it fills, then
    /// publishes the extent. Nothing is published when the write fails.
    private func append(
        _ bytes: UnsafeRawBufferPointer, original: UInt64, descriptor: FileDescriptor, writer: inout WriterState
    ) throws(SparseFileError) {
        let start = state.withLock { $0.dataEnd }
        let (end, overflow) = start.addingReportingOverflow(UInt64(bytes.count))
        guard !overflow, end <= FileLayout.maximumDataEnd else {
            throw SparseFileError(.limitExceeded, "the file cannot grow past \(FileLayout.maximumDataEnd) data bytes", path: path)
        }
        try DataSpace(descriptor: descriptor).write(bytes, at: start)
        absorbIntoChecksums(bytes, at: start, writer: &writer)
        state.withLock { state in
            state.map.insert(Extent(original: original, length: UInt64(bytes.count), data: start))
            state.dataEnd = end
            state.verified.insert(blocksFrom: FileLayout.block(containing: start), through: FileLayout.block(containing: end - 1))
            state.changeCount += 1
        }
    }

    /// Feeds appended bytes into the block checksums: completes the partial tail block, hashes
    /// whole blocks straight from `bytes`, and keeps the remainder as the new tail.
    private func absorbIntoChecksums(_ bytes: UnsafeRawBufferPointer, at start: UInt64, writer: inout WriterState) {
        var consumed = 0
        var block = FileLayout.block(containing: start)
        let blockSize = Int(FileLayout.blockSize)
        if !writer.tail.isEmpty {
            let take = min(blockSize - writer.tail.count, bytes.count)
            writer.tail.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[0..<take]))
            consumed = take
            guard writer.tail.count == blockSize else { return }
            writer.pendingChecksums.append(Checksum.of(writer.tail, seed: block))
            writer.tail.removeAll(keepingCapacity: true)
            block += 1
        }
        while bytes.count - consumed >= blockSize {
            let whole = UnsafeRawBufferPointer(rebasing: bytes[consumed..<consumed + blockSize])
            writer.pendingChecksums.append(Checksum.ofBlock(whole, block: block))
            consumed += blockSize
            block += 1
        }
        writer.tail.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[consumed...]))
    }

    /// Changes the resource metadata. The key cannot change; a content length must cover every
    /// cached byte. Persisted at the next commit.
    public func updateMetadata(_ update: (inout ResourceMetadata) -> Void) throws(SparseFileError) {
        guard isWritable else { throw SparseFileError(.readOnly, "cannot update metadata: opened read-only", path: path) }
        try writer.withLock { _ throws(SparseFileError) in
            try state.withLock { state throws(SparseFileError) in
                var metadata = state.metadata
                update(&metadata)
                guard metadata.key == state.metadata.key else {
                    throw SparseFileError(.invalidArgument, "the key of a cache file cannot change", path: path)
                }
                try Self.validate(metadata, extents: state.map.extents)
                guard metadata != state.metadata else { return }
                state.metadata = metadata
                state.changeCount += 1
            }
        }
    }

    static func validate(_ metadata: ResourceMetadata, extents: [Extent]) throws(SparseFileError) {
        let strings = [metadata.key, metadata.entityTag, metadata.lastModified, metadata.contentType].compactMap { $0 }
            + metadata.attributes.keys + metadata.attributes.values
        guard strings.allSatisfy({ $0.utf8.count <= HeaderBody.maximumStringLength }),
              metadata.attributes.count <= HeaderBody.maximumAttributeCount else {
            throw SparseFileError(.invalidArgument, "metadata strings are limited to \(HeaderBody.maximumStringLength) bytes and \(HeaderBody.maximumAttributeCount) attributes")
        }
        if let length = metadata.contentLength, let last = extents.last, last.originalEnd > length {
            throw SparseFileError(.conflict, "content length \(length) is shorter than the cached range \(last.originalRange)")
        }
    }

    /// Makes every change so far crash-safe: block checksums, then (by the durability policy) a
    /// data sync, then the header in the slot not currently in use. See Docs/FORMAT.md, "Commit".
    public func commit() throws(SparseFileError) {
        guard isWritable else { throw SparseFileError(.readOnly, "cannot commit: opened read-only", path: path) }
        try writer.withLock { writer throws(SparseFileError) in try commitLocked(&writer) }
    }

    func commitLocked(_ writer: inout WriterState, force: Bool = false) throws(SparseFileError) {
        let snapshot = try state.withLock { state throws(SparseFileError) in
            (descriptor: try state.openDescriptor(), map: state.map, metadata: state.metadata,
             generation: state.generation, activeSlot: state.activeSlot, createdAt: state.createdAt,
             changeCount: state.changeCount, isDirty: state.changeCount != state.committedChangeCount)
        }
        guard snapshot.isDirty || force || !writer.pendingChecksums.isEmpty else { return }
        do throws(SparseFileError) {
            let descriptor = snapshot.descriptor
            let target = 1 - snapshot.activeSlot
            let body = HeaderBody(metadata: snapshot.metadata, extents: snapshot.map.extents).encoded()
            var storage = HeaderSlot.BodyStorage.inline
            var stored = body
            if body.count > HeaderSlot.inlineCapacity {
                guard let compressed = Zlib.compress(body) else {
                    throw SparseFileError(.ioFailure, "zlib could not compress the header body", path: path)
                }
                let area = try spillArea(for: target, fitting: UInt64(compressed.count), descriptor: descriptor, writer: &writer)
                storage = .spilled(offset: area.offset, capacity: area.capacity)
                stored = compressed
            }
            try flushPendingChecksums(descriptor: descriptor, writer: &writer)
            // This sync makes the data durable before any header can describe it, and it makes
            // the slot in use durable before the target's spill area and slot are overwritten.
            if options.durability != .none { try descriptor.synchronize() }
            if case .spilled(let offset, _) = storage {
                try stored.withBytes { bytes throws(SparseFileError) in
                    try DataSpace(descriptor: descriptor).write(bytes, at: offset)
                }
            }
            let dataEnd = state.withLock { $0.dataEnd }
            let slot = HeaderSlot(
                slotIndex: target, generation: snapshot.generation + 1, dataEnd: dataEnd,
                contentLength: snapshot.metadata.contentLength, cachedBytes: snapshot.map.cachedBytes,
                extentCount: UInt64(snapshot.map.count),
                tailChecksum: writer.tail.isEmpty ? 0 : Checksum.of(writer.tail, seed: FileLayout.block(containing: dataEnd)),
                storage: storage, storedBodyLength: UInt64(stored.count), bodyLength: UInt64(body.count),
                bodyChecksum: Checksum.of(stored), createdAt: snapshot.createdAt,
                inlineBody: storage == .inline ? body : [])
            try descriptor.write(slot.encoded(), at: FileLayout.slotFileOffset(target))
            if options.durability == .full { try descriptor.synchronize() }
            state.withLock { state in
                state.generation = slot.generation
                state.activeSlot = target
                state.isSpilled = storage != .inline
                state.committedChangeCount = snapshot.changeCount
            }
            writer.bytesSinceCommit = 0
        } catch {
            throw error.at(path)
        }
    }

    private func flushPendingChecksums(descriptor: FileDescriptor, writer: inout WriterState) throws(SparseFileError) {
        guard !writer.pendingChecksums.isEmpty else { return }
        try DataSpace(descriptor: descriptor).writeChecksums(writer.pendingChecksums[...], from: writer.pendingFirstBlock)
        writer.pendingFirstBlock += UInt64(writer.pendingChecksums.count)
        writer.pendingChecksums.removeAll(keepingCapacity: true)
        let checksummed = writer.pendingFirstBlock
        // A checksum page read before these entries were written holds zeros for them.
        state.withLock { state in
            state.checksummedBlocks = max(state.checksummedBlocks, checksummed)
            state.checksumPages.removeAll()
        }
    }

    /// The slot's spill area when the compressed body fits it, else a new block-aligned area at
    /// the end of the data space with room to grow. The area of the slot in use is never touched.
    private func spillArea(
        for slot: Int, fitting length: UInt64, descriptor: FileDescriptor, writer: inout WriterState
    ) throws(SparseFileError) -> SpillArea {
        if let area = writer.spillAreas[slot], area.capacity >= length { return area }
        try padTailToBlockBoundary(descriptor: descriptor, writer: &writer)
        let start = state.withLock { $0.dataEnd }
        let capacity = FileLayout.alignUp(length + length / 2)
        let area = SpillArea(offset: start, capacity: capacity)
        guard start + capacity <= FileLayout.maximumDataEnd else {
            throw SparseFileError(.limitExceeded, "no room for the header's range table", path: path)
        }
        state.withLock { $0.dataEnd = start + capacity }
        // Blocks of a spill area have no checksum entries of their own (the area has one
        // checksum in the slot); keep the consecutive run of pending entries intact.
        try flushPendingChecksums(descriptor: descriptor, writer: &writer)
        writer.pendingFirstBlock = FileLayout.block(containing: start + capacity)
        writer.spillAreas[slot] = area
        return area
    }

    /// Fills the partial last block with zeros so the next allocation starts on a block boundary.
    private func padTailToBlockBoundary(descriptor: FileDescriptor, writer: inout WriterState) throws(SparseFileError) {
        guard !writer.tail.isEmpty else { return }
        let start = state.withLock { $0.dataEnd }
        let padding = [UInt8](repeating: 0, count: Int(FileLayout.blockSize) - writer.tail.count)
        try padding.withBytes { bytes throws(SparseFileError) in
            try DataSpace(descriptor: descriptor).write(bytes, at: start)
            absorbIntoChecksums(bytes, at: start, writer: &writer)
        }
        state.withLock { $0.dataEnd = start + UInt64(padding.count) }
    }
}
