extension SparseFile {
    /// A cached piece of a read: `length` bytes at data offset `data` go to `bufferOffset`.
    struct ReadPiece {
        var bufferOffset: Int
        var data: UInt64
        var length: Int
    }

    /// Reads original bytes `offset..<offset + buffer.count` into `buffer`.
    ///
    /// Bytes come straight from the file into `buffer`. Each block is checked against its XXH3
    /// checksum the first time this process reads it (so the cost per read is bounded by the
    /// blocks it touches, not by the size of the extent); a block that fails is dropped from
    /// the map and reported missing, never served.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws(SparseFileError) -> ReadOutcome {
        guard let range = ByteRange(offset: offset, length: UInt64(buffer.count)) else {
            throw SparseFileError(.invalidArgument, "read range overflows", path: path)
        }
        guard !range.isEmpty else { return .complete }
        var pieces: [ReadPiece] = []
        var unverified: [UInt64] = []
        var missing: [ByteRange] = []
        let (descriptor, tail) = try state.withLock { state throws(SparseFileError) in
            let descriptor = try state.openDescriptor()
            state.map.walk(range, present: { piece, data in
                pieces.append(ReadPiece(bufferOffset: Int(piece.offset - offset), data: data, length: Int(piece.length)))
                let last = FileLayout.block(containing: data + piece.length - 1)
                for block in FileLayout.block(containing: data)...last where !state.verified.contains(block) {
                    unverified.append(block)
                }
            }, missing: { missing.append($0) })
            return (descriptor, state.committedTail)
        }
        guard missing.isEmpty else { return .missing(missing) }

        let space = DataSpace(descriptor: descriptor)
        var shortBlocks: [UInt64] = []
        for piece in pieces {
            let slice = UnsafeMutableRawBufferPointer(rebasing: buffer[piece.bufferOffset..<piece.bufferOffset + piece.length])
            let got = try space.read(into: slice, at: piece.data)
            if got < piece.length {
                shortBlocks.append(FileLayout.block(containing: piece.data + UInt64(got)))
            }
        }
        if unverified.isEmpty && shortBlocks.isEmpty { return .complete }
        let bad = try verify(blocks: unverified, pieces: pieces, buffer: UnsafeRawBufferPointer(buffer),
                             space: space, tail: tail) + shortBlocks
        guard bad.isEmpty else {
            return .missing(quarantine(blocks: bad, reportingWithin: range))
        }
        state.withLock { state in
            for block in unverified { state.verified.insert(block) }
        }
        return .complete
    }

    /// Reads `range` into a new array.
    public func read(_ range: ByteRange) throws(SparseFileError) -> ReadResult {
        guard let count = Int(exactly: range.length) else {
            throw SparseFileError(.invalidArgument, "read of \(range.length) bytes is too large", path: path)
        }
        var bytes = [UInt8](repeating: 0, count: count)
        let outcome = try bytes.withMutableBytes { buffer throws(SparseFileError) in
            try read(into: buffer, at: range.offset)
        }
        switch outcome {
        case .complete: return .bytes(bytes)
        case .missing(let ranges): return .missing(ranges)
        }
    }

    /// Checks `blocks` against their stored checksums and returns those that fail. A block that
    /// lies whole inside the bytes just read is hashed in `buffer`; an edge block is read on its own.
    private func verify(
        blocks: [UInt64], pieces: [ReadPiece], buffer: UnsafeRawBufferPointer,
        space: DataSpace, tail: CommittedTail?
    ) throws(SparseFileError) -> [UInt64] {
        // Pieces need not be in data order; checksums are read once per run of adjacent blocks.
        let ordered = Set(blocks).sorted()
        var bad: [UInt64] = []
        var scratch: [UInt8] = []
        var runStart = 0
        while runStart < ordered.count {
            var runEnd = runStart + 1
            while runEnd < ordered.count, ordered[runEnd] == ordered[runEnd - 1] + 1 { runEnd += 1 }
            let stored = try space.readChecksums(from: ordered[runStart], count: runEnd - runStart)
            for (index, block) in ordered[runStart..<runEnd].enumerated() {
                var length = Int(FileLayout.blockSize)
                var expected = stored[index]
                if let tail, tail.block == block {
                    length = tail.length
                    expected = tail.checksum
                }
                if try !blockMatches(block, length: length, expected: expected, pieces: pieces, buffer: buffer,
                                     space: space, scratch: &scratch) {
                    bad.append(block)
                }
            }
            runStart = runEnd
        }
        return bad
    }

    private func blockMatches(
        _ block: UInt64, length: Int, expected: UInt64, pieces: [ReadPiece], buffer: UnsafeRawBufferPointer,
        space: DataSpace, scratch: inout [UInt8]
    ) throws(SparseFileError) -> Bool {
        let start = FileLayout.blockStart(block)
        let end = start + UInt64(length)
        if let piece = pieces.first(where: { $0.data <= start && end <= $0.data + UInt64($0.length) }) {
            let from = piece.bufferOffset + Int(start - piece.data)
            return Checksum.ofBlock(UnsafeRawBufferPointer(rebasing: buffer[from..<from + length]), block: block) == expected
        }
        if scratch.count != length { scratch = [UInt8](repeating: 0, count: length) }
        return try scratch.withMutableBytes { bytes throws(SparseFileError) in
            let got = try space.read(into: bytes, at: start)
            return got == length && Checksum.ofBlock(UnsafeRawBufferPointer(bytes), block: block) == expected
        }
    }

    /// Drops every cached byte stored in `blocks` from the map (a corrupt block is a miss from
    /// now on; a writer persists the change at its next commit) and returns what of `range`
    /// is now missing.
    func quarantine(blocks: [UInt64], reportingWithin range: ByteRange) -> [ByteRange] {
        state.withLock { state in
            for block in Set(blocks) {
                let start = FileLayout.blockStart(block)
                _ = state.map.removeData(in: ByteRange(uncheckedFrom: start, to: start + FileLayout.blockSize))
                state.verified.remove(block)
                state.corruptBlocksDetected += 1
            }
            state.changeCount += 1
            return state.map.missingRanges(in: range)
        }
    }
}
