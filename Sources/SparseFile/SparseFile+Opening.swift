extension SparseFile {
    /// Makes a freshly opened writer's in-memory state match the committed header: drops bytes
    /// written after the last commit, reloads and checks the partial last block (later appends
    /// extend its checksum), and learns which spill areas may be reused.
    func prepareForWriting(otherSlot: HeaderSlot?) throws(SparseFileError) {
        try writer.withLock { writer throws(SparseFileError) in
            let (descriptor, dataEnd, extents) = try state.withLock { state throws(SparseFileError) in
                (try state.openDescriptor(), state.dataEnd, state.map.extents)
            }
            let committedSize = FileLayout.fileSize(forDataEnd: dataEnd)
            if try descriptor.size() > committedSize {
                try descriptor.truncate(to: committedSize)
            }
            var liveEnd = dataEnd
            var verifiedTail: UInt64?
            let tailLength = Int(dataEnd % FileLayout.blockSize)
            if tailLength > 0 {
                let block = FileLayout.block(containing: dataEnd)
                let start = FileLayout.blockStart(block)
                let bytes = try DataSpace(descriptor: descriptor).readBytes(count: tailLength, at: start)
                let expected = state.withLock { $0.committedTail?.checksum }
                if bytes.count == tailLength && Checksum.of(bytes, seed: block) == expected {
                    writer.tail = bytes
                    verifiedTail = block
                } else {
                    // The partial block is damaged: forget what it held and write over it.
                    liveEnd = start
                    writer.droppedAtOpen = state.withLock { state in
                        state.corruptBlocksDetected += 1
                        state.changeCount += 1
                        return state.map.removeData(in: ByteRange(uncheckedFrom: start, to: dataEnd))
                    }
                }
            }
            writer.pendingFirstBlock = FileLayout.block(containing: liveEnd)
            if case .spilled(let offset, let capacity)? = otherSlot?.storage,
               let area = ByteRange(offset: offset, length: capacity), area.end <= liveEnd,
               !extents.contains(where: { ByteRange(uncheckedFrom: $0.data, to: $0.dataEnd).overlaps(area) }),
               writer.spillAreas.compactMap({ $0 }).allSatisfy({ !ByteRange(uncheckedFrom: $0.offset, to: $0.offset + $0.capacity).overlaps(area) }),
               let index = otherSlot?.slotIndex {
                writer.spillAreas[index] = SpillArea(offset: offset, capacity: capacity)
            }
            state.withLock { state in
                state.dataEnd = liveEnd
                state.checksummedBlocks = writer.pendingFirstBlock
                state.committedTail = nil
                if let verifiedTail { state.verified.insert(verifiedTail) }
            }
        }
    }
}
