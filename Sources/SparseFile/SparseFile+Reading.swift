extension SparseFile {
    /// A cached piece of a read: `length` bytes at data offset `data` go to `bufferOffset`.
    struct ReadPiece {
        var bufferOffset: Int
        var data: UInt64
        var length: Int
    }

    /// What a read needs from the locked state.
    private struct ReadPlan {
        var descriptor: FileDescriptor
        var pieces: [ReadPiece] = []
        var unverified: [UInt64] = []
        var missing: [ByteRange] = []
        var tail: CommittedTail?
    }

    /// Reads no more than this many bytes around a small read, so its edge blocks can be
    /// verified from the same read instead of being read again.
    private static let alignedReadLimit = 64 * 1024

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
        // The common case of a hit, one extent already verified, costs one lookup and one pread.
        let direct = try state.withLock { state throws(SparseFileError) -> (FileDescriptor, UInt64)? in
            guard let data = state.verifiedDataOffset(of: range) else { return nil }
            return (try state.openDescriptor(), data)
        }
        if let (descriptor, data) = direct {
            let got = try DataSpace(descriptor: descriptor).read(into: buffer, at: data)
            guard got < buffer.count else { return .complete }
            return .missing(quarantine(blocks: [FileLayout.block(containing: data + UInt64(got))], reportingWithin: range))
        }
        let plan = try state.withLock { state throws(SparseFileError) in try Self.plan(range, in: state) }
        guard plan.missing.isEmpty else { return .missing(plan.missing) }
        let space = DataSpace(descriptor: plan.descriptor)

        if plan.unverified.isEmpty {
            for piece in plan.pieces {
                let slice = UnsafeMutableRawBufferPointer(rebasing: buffer[piece.bufferOffset..<piece.bufferOffset + piece.length])
                let got = try space.read(into: slice, at: piece.data)
                if got < piece.length {
                    return .missing(quarantine(blocks: [FileLayout.block(containing: piece.data + UInt64(got))], reportingWithin: range))
                }
            }
            return .complete
        }
        let bad: [UInt64]
        if plan.pieces.count == 1, let piece = plan.pieces.first, Self.alignedSpan(of: piece, tail: plan.tail).length <= UInt64(Self.alignedReadLimit) {
            bad = try readAligned(piece, into: buffer, space: space, plan: plan)
        } else {
            bad = try readAndVerify(into: buffer, space: space, plan: plan)
        }
        guard bad.isEmpty else { return .missing(quarantine(blocks: bad, reportingWithin: range)) }
        state.withLock { state in
            for block in plan.unverified { state.verified.insert(block) }
        }
        return .complete
    }

    private static func plan(_ range: ByteRange, in state: State) throws(SparseFileError) -> ReadPlan {
        var plan = ReadPlan(descriptor: try state.openDescriptor(), tail: state.committedTail)
        func add(_ piece: ReadPiece) {
            plan.pieces.append(piece)
            let last = FileLayout.block(containing: piece.data + UInt64(piece.length) - 1)
            for block in FileLayout.block(containing: piece.data)...last where !state.verified.contains(block) {
                plan.unverified.append(block)
            }
        }
        if let extent = state.map.extent(covering: range) {
            add(ReadPiece(bufferOffset: 0, data: extent.dataOffset(of: range.offset), length: Int(range.length)))
            return plan
        }
        state.map.walk(range, present: { piece, data in
            add(ReadPiece(bufferOffset: Int(piece.offset - range.offset), data: data, length: Int(piece.length)))
        }, missing: { plan.missing.append($0) })
        return plan
    }

    /// The data range of the whole blocks around `piece` (the last one cut at the committed tail).
    private static func alignedSpan(of piece: ReadPiece, tail: CommittedTail?) -> ByteRange {
        let first = FileLayout.block(containing: piece.data)
        let last = FileLayout.block(containing: piece.data + UInt64(piece.length) - 1)
        var end = FileLayout.blockStart(last + 1)
        if let tail, tail.block == last { end = FileLayout.blockStart(last) + UInt64(tail.length) }
        return ByteRange(uncheckedFrom: FileLayout.blockStart(first), to: end)
    }

    /// A small read with blocks still to verify: one read of the whole blocks into scratch
    /// space, checked there, then copied out.
    private func readAligned(
        _ piece: ReadPiece, into buffer: UnsafeMutableRawBufferPointer, space: DataSpace, plan: ReadPlan
    ) throws(SparseFileError) -> [UInt64] {
        let span = Self.alignedSpan(of: piece, tail: plan.tail)
        var scratch = [UInt8](repeating: 0, count: Int(span.length))
        return try scratch.withMutableBytes { bytes throws(SparseFileError) in
            let got = try space.read(into: bytes, at: span.offset)
            let whole = ReadPiece(bufferOffset: 0, data: span.offset, length: got)
            let bad = try verify(blocks: plan.unverified, pieces: [whole], buffer: UnsafeRawBufferPointer(bytes),
                                 space: space, tail: plan.tail)
            if bad.isEmpty {
                let from = Int(piece.data - span.offset)
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[from..<from + piece.length]))
            }
            return bad
        }
    }

    /// A larger read: straight into `buffer`, then the blocks it has not verified yet are checked.
    private func readAndVerify(
        into buffer: UnsafeMutableRawBufferPointer, space: DataSpace, plan: ReadPlan
    ) throws(SparseFileError) -> [UInt64] {
        var shortBlocks: [UInt64] = []
        for piece in plan.pieces {
            let slice = UnsafeMutableRawBufferPointer(rebasing: buffer[piece.bufferOffset..<piece.bufferOffset + piece.length])
            let got = try space.read(into: slice, at: piece.data)
            if got < piece.length { shortBlocks.append(FileLayout.block(containing: piece.data + UInt64(got))) }
        }
        return try verify(blocks: plan.unverified, pieces: plan.pieces, buffer: UnsafeRawBufferPointer(buffer),
                          space: space, tail: plan.tail) + shortBlocks
    }

    /// Checks the blocks holding cached bytes `range` that this process has not verified (yet,
    /// or again: ``requireVerificationAgain(within:)``), reading them into scratch memory freed at once,
    /// so that ``verifiedRun(for:)`` and ``verifiedRegion(for:)`` give them out: for a caller
    /// that sends bytes with `sendfile` and holds no copy of them. Costs nothing for bytes
    /// verified already. `.missing` names what is not cached, or failed and was dropped.
    public func verify(_ range: ByteRange) throws(SparseFileError) -> ReadOutcome {
        if state.withLock({ $0.verifiedDataOffset(of: range) != nil }) { return .complete }
        let pieceSize = Self.verificationPieceSize
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: Int(min(range.length, pieceSize)), alignment: 16)
        defer { scratch.deallocate() }
        var position = range.offset
        var missing: [ByteRange] = []
        while position < range.end {
            let count = Int(min(range.end - position, pieceSize))
            if case .missing(let gaps) = try read(into: UnsafeMutableRawBufferPointer(rebasing: scratch[0..<count]), at: position) {
                for gap in gaps {
                    if let last = missing.last, last.end == gap.offset, let joined = ByteRange(from: last.offset, to: gap.end) {
                        missing[missing.count - 1] = joined
                    } else {
                        missing.append(gap)
                    }
                }
            }
            position += UInt64(count)
        }
        return missing.isEmpty ? .complete : .missing(missing)
    }

    /// The most scratch memory ``verify(_:)`` takes at once: below glibc's threshold for
    /// mapping an allocation of its own, and allocated with malloc's own alignment, so that
    /// the freed piece is reused as it is (64-byte alignment, through posix_memalign, left holes
    /// no later piece fitted: 64 streams verifying grew the heap by 20-65 MB).
    private static let verificationPieceSize: UInt64 = 64 << 10

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
    /// lies whole inside the bytes read is hashed in `buffer`; an edge block is read on its own.
    private func verify(
        blocks: [UInt64], pieces: [ReadPiece], buffer: UnsafeRawBufferPointer,
        space: DataSpace, tail: CommittedTail?
    ) throws(SparseFileError) -> [UInt64] {
        var bad: [UInt64] = []
        var scratch: [UInt8] = []
        for block in blocks {
            var length = Int(FileLayout.blockSize)
            let expected: UInt64
            if let tail, tail.block == block {
                length = tail.length
                expected = tail.checksum
            } else {
                expected = try storedChecksum(of: block, space: space)
            }
            if try !blockMatches(block, length: length, expected: expected, pieces: pieces, buffer: buffer,
                                 space: space, scratch: &scratch) {
                bad.append(block)
            }
        }
        return bad
    }

    /// A block's stored checksum, through the page cache.
    private func storedChecksum(of block: UInt64, space: DataSpace) throws(SparseFileError) -> UInt64 {
        let (cached, generation) = state.withLock { ($0.checksumPages.entry(for: block), $0.checksumPages.generation) }
        if let cached { return cached }
        let page = block / ChecksumPageCache.entriesPerPage
        let entries = try space.readChecksums(from: page * ChecksumPageCache.entriesPerPage,
                                              count: Int(ChecksumPageCache.entriesPerPage))
        state.withLock { $0.checksumPages.insert(page: page, entries: entries, readIn: generation) }
        return entries[Int(block % ChecksumPageCache.entriesPerPage)]
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
