extension SparseFile {
    /// Checks both header slots and every committed data byte against their XXH3 checksums.
    ///
    /// Verification reads the file as committed on disk (uncommitted appends are not yet part
    /// of it) in 1 MiB batches, calling `progress(checkedBytes, totalBytes)` after each.
    public func verify(
        progress: (_ checked: UInt64, _ total: UInt64) -> Void = { _, _ in }
    ) throws(SparseFileError) -> VerificationReport {
        let descriptor = try state.withLock { state throws(SparseFileError) in try state.openDescriptor() }
        do throws(SparseFileError) {
            let loaded = try HeaderLoader(descriptor: descriptor, maximumBodyLength: options.maximumBodyLength)
                .load(checkEverySlot: true)
            let (badBlocks, checked) = try Self.findCorruptBlocks(
                extents: loaded.body.extents, slot: loaded.slot, space: DataSpace(descriptor: descriptor), progress: progress)
            var map = ExtentMap(loaded.body.extents)
            var corrupt: [ByteRange] = []
            for block in badBlocks {
                let start = FileLayout.blockStart(block)
                corrupt += map.removeData(in: ByteRange(uncheckedFrom: start, to: start + FileLayout.blockSize))
            }
            return VerificationReport(slots: loaded.statuses, checkedBytes: checked, corruptRanges: Self.merged(corrupt))
        } catch {
            throw error.at(path)
        }
    }

    /// Hashes every block that holds cached bytes, in data order, and returns the blocks that
    /// fail (or are cut off by the end of the file) with the number of bytes hashed.
    private static func findCorruptBlocks(
        extents: [Extent], slot: HeaderSlot, space: DataSpace, progress: (UInt64, UInt64) -> Void
    ) throws(SparseFileError) -> (blocks: [UInt64], checked: UInt64) {
        var blocks = Set<UInt64>()
        for extent in extents {
            for block in FileLayout.block(containing: extent.data)...FileLayout.block(containing: extent.dataEnd - 1) {
                blocks.insert(block)
            }
        }
        let ordered = blocks.sorted()
        let total = UInt64(ordered.count) * FileLayout.blockSize
        let tailBlock = slot.dataEnd % FileLayout.blockSize == 0 ? nil : FileLayout.block(containing: slot.dataEnd)
        var bad: [UInt64] = []
        var checked: UInt64 = 0
        var index = 0
        let batch = 256
        var buffer = [UInt8](repeating: 0, count: batch * Int(FileLayout.blockSize))
        while index < ordered.count {
            // A run of consecutive blocks is read with one call.
            var runEnd = index + 1
            while runEnd < ordered.count, runEnd - index < batch, ordered[runEnd] == ordered[runEnd - 1] + 1 { runEnd += 1 }
            let first = ordered[index]
            let count = runEnd - index
            let stored = try space.readChecksums(from: first, count: count)
            let got = try buffer.withMutableBytes { bytes throws(SparseFileError) in
                try space.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[0..<count * Int(FileLayout.blockSize)]), at: FileLayout.blockStart(first))
            }
            buffer.withUnsafeBytes { bytes in
                for offset in 0..<count {
                    let block = first + UInt64(offset)
                    let isTail = block == tailBlock
                    let length = isTail ? Int(slot.dataEnd % FileLayout.blockSize) : Int(FileLayout.blockSize)
                    let from = offset * Int(FileLayout.blockSize)
                    let expected = isTail ? slot.tailChecksum : stored[offset]
                    if got < from + length
                        || Checksum.ofBlock(UnsafeRawBufferPointer(rebasing: bytes[from..<from + length]), block: block) != expected {
                        bad.append(block)
                    }
                    checked += UInt64(length)
                }
            }
            progress(checked, total)
            index = runEnd
        }
        return (bad, checked)
    }

    static func merged(_ ranges: [ByteRange]) -> [ByteRange] {
        var result: [ByteRange] = []
        for range in ranges.sorted() {
            if let last = result.last, last.end >= range.offset {
                result[result.count - 1] = ByteRange(uncheckedFrom: last.offset, to: max(last.end, range.end))
            } else {
                result.append(range)
            }
        }
        return result
    }

    /// Verifies the file, drops every range whose bytes are corrupt (keeping all the rest), and
    /// commits a fresh header when anything was dropped or a header slot was bad.
    public func repair() throws(SparseFileError) -> RepairReport {
        guard isWritable else { throw SparseFileError(.readOnly, "cannot repair: opened read-only", path: path) }
        return try writer.withLock { writer throws(SparseFileError) in
            // Opening for writing already dropped a damaged partial last block; this commit
            // records that, and the verification below no longer sees it.
            let droppedAtOpen = writer.droppedAtOpen
            writer.droppedAtOpen = []
            try commitLocked(&writer)
            let report = try verify()
            var dropped: [ByteRange] = []
            if !report.corruptRanges.isEmpty {
                state.withLock { state in
                    for range in report.corruptRanges {
                        for piece in Self.dataRanges(of: range, in: state.map) {
                            dropped += state.map.removeData(in: piece)
                        }
                    }
                    state.changeCount += 1
                }
            }
            if !report.isSound { try commitLocked(&writer, force: true) }
            return RepairReport(verification: report, droppedRanges: Self.merged(dropped + droppedAtOpen),
                                rewroteHeader: !report.isSound || !droppedAtOpen.isEmpty)
        }
    }

    /// The data ranges that hold the original bytes of `range`.
    private static func dataRanges(of range: ByteRange, in map: ExtentMap) -> [ByteRange] {
        var pieces: [ByteRange] = []
        map.walk(range, present: { piece, data in
            pieces.append(ByteRange(uncheckedFrom: data, to: data + piece.length))
        }, missing: { _ in })
        return pieces
    }
}
