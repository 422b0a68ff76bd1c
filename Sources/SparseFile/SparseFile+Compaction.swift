#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

extension SparseFile {
    /// Rewrites the file with its ranges in origin order and no dead space (abandoned spill
    /// areas, padding, ranges stored apart), then atomically renames it over the original.
    ///
    /// Every byte is verified on the way; a corrupt block is left out, not copied. A crash at
    /// any point leaves either the old file or the new one at ``path``. Readers that are in the
    /// middle of a read finish it on the old file.
    @discardableResult
    public func compact() throws(SparseFileError) -> CompactionReport {
        guard isWritable else { throw SparseFileError(.readOnly, "cannot compact: opened read-only", path: path) }
        return try writer.withLock { writer throws(SparseFileError) in
            try commitLocked(&writer)
            let (before, extentsBefore, metadata, ranges) = try state.withLock { state throws(SparseFileError) in
                (try state.openDescriptor().size(), state.map.count, state.metadata, state.map.mergedRanges)
            }
            let calls = options.systemCalls
            let temporary = Directory.temporarySibling(of: path, purpose: "compact")
            defer { try? Directory.remove(temporary, calls: calls) }
            var dropped: [ByteRange] = []
            do throws(SparseFileError) {
                var copyOptions = options
                copyOptions.autoCommitInterval = nil
                copyOptions.durability = options.durability == .none ? .none : .full
                let copy = try SparseFile.create(at: temporary, metadata: metadata, options: copyOptions)
                for range in ranges {
                    dropped += try copyRange(range, to: copy)
                }
                try copy.close()
                try Directory.rename(temporary, to: path, calls: calls)
                if options.durability != .none { try Directory.synchronize(Directory.parent(of: path), calls: calls) }
                try reopenAfterCompaction(writer: &writer)
            } catch {
                throw error.at(path)
            }
            let (after, extentsAfter) = try state.withLock { state throws(SparseFileError) in
                (try state.openDescriptor().size(), state.map.count)
            }
            return CompactionReport(fileSizeBefore: before, fileSizeAfter: after, extentsBefore: extentsBefore,
                                    extentsAfter: extentsAfter, droppedRanges: Self.merged(dropped))
        }
    }

    /// Copies `range` in 1 MiB reads, skipping (and returning) what fails verification.
    private func copyRange(_ range: ByteRange, to copy: SparseFile) throws(SparseFileError) -> [ByteRange] {
        var dropped: [ByteRange] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var position = range.offset
        while position < range.end {
            let piece = ByteRange(uncheckedFrom: position, to: min(range.end, position + UInt64(buffer.count)))
            let outcome = try buffer.withMutableBytes { bytes throws(SparseFileError) in
                try read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[0..<Int(piece.length)]), at: piece.offset)
            }
            switch outcome {
            case .complete:
                try buffer.withBytes { bytes throws(SparseFileError) in
                    try copy.write(UnsafeRawBufferPointer(rebasing: bytes[0..<Int(piece.length)]), at: piece.offset)
                }
            case .missing(let gaps):
                dropped += gaps
                // What is left of the piece verified; copy it range by range.
                var cursor = piece.offset
                for gap in gaps + [ByteRange(uncheckedFrom: piece.end, to: piece.end)] {
                    if cursor < gap.offset, case .bytes(let bytes) = try read(ByteRange(uncheckedFrom: cursor, to: gap.offset)) {
                        try copy.write(bytes, at: cursor)
                    }
                    cursor = max(cursor, gap.end)
                }
            }
            position = piece.end
        }
        return dropped
    }

    /// Points this instance at the freshly renamed file. Everything in it was verified while it
    /// was copied, so every block starts out verified.
    private func reopenAfterCompaction(writer: inout WriterState) throws(SparseFileError) {
        let descriptor = try FileDescriptor.open(path, flags: O_RDWR, calls: options.systemCalls)
        try descriptor.lockForWriting()
        let loaded = try HeaderLoader(descriptor: descriptor, maximumBodyLength: options.maximumBodyLength).load()
        let slot = loaded.slot
        let tailLength = Int(slot.dataEnd % FileLayout.blockSize)
        let tailStart = slot.dataEnd - UInt64(tailLength)
        let tail = try DataSpace(descriptor: descriptor).readBytes(count: tailLength, at: tailStart)
        guard tail.count == tailLength, tailLength == 0 || Checksum.of(tail, seed: FileLayout.block(containing: tailStart)) == slot.tailChecksum else {
            throw .corrupt("the compacted file does not read back")
        }
        writer = WriterState()
        writer.tail = tail
        writer.pendingFirstBlock = FileLayout.block(containing: slot.dataEnd)
        if case .spilled(let offset, let capacity) = slot.storage {
            writer.spillAreas[slot.slotIndex] = SpillArea(offset: offset, capacity: capacity)
        }
        state.withLock { state in
            state.descriptor = descriptor
            state.map = ExtentMap(loaded.body.extents)
            state.metadata = loaded.body.metadata
            state.dataEnd = slot.dataEnd
            state.verified.removeAll()
            state.checksumPages.removeAll()
            if slot.dataEnd > 0 {
                state.verified.insert(blocksFrom: 0, through: FileLayout.block(containing: slot.dataEnd - 1))
            }
            state.committedTail = nil
            state.checksummedBlocks = writer.pendingFirstBlock
            state.generation = slot.generation
            state.activeSlot = slot.slotIndex
            state.isSpilled = slot.storage != .inline
            state.committedChangeCount = state.changeCount
        }
    }
}
