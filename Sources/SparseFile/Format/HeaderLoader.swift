/// Reads both header slots of a file and chooses the one to trust: the valid slot with the
/// highest generation (Docs/FORMAT.md, "Choosing a header"). A slot is valid when its fixed
/// fields, its checksums and its body all decode and agree with each other.
struct HeaderLoader {
    let descriptor: FileDescriptor
    let maximumBodyLength: UInt64

    struct Loaded {
        var slot: HeaderSlot
        var body: HeaderBody
        var statuses: [HeaderSlotStatus]
        /// The other slot's fixed fields when they decode: its spill area may be reused.
        var otherSlot: HeaderSlot?
    }

    /// - Parameter checkEverySlot: decode the inactive slot's body too (for verification);
    ///   opening only needs its fixed fields.
    func load(checkEverySlot: Bool = false) throws(SparseFileError) -> Loaded {
        var slots: [HeaderSlot?] = [nil, nil]
        var problems: [SparseFileError?] = [nil, nil]
        for index in 0..<FileLayout.slotCount {
            do {
                let bytes = try descriptor.readBytes(count: FileLayout.slotSize, at: FileLayout.slotFileOffset(index))
                // A new file's second slot is all zeros until its first commit: empty, not damaged.
                if index > 0 && bytes.allSatisfy({ $0 == 0 }) { continue }
                slots[index] = try HeaderSlot.decode(bytes, expectedIndex: index)
            } catch {
                problems[index] = error
            }
        }
        // Try the newest first; fall back to the other when its body or table is bad.
        // Equal generations (never written by a writer) go to slot 0.
        let order = (0..<FileLayout.slotCount).filter { slots[$0] != nil }.sorted { lhs, rhs in
            let (left, right) = (slots[lhs]?.generation ?? 0, slots[rhs]?.generation ?? 0)
            return left != right ? left > right : lhs < rhs
        }
        var chosen: (slot: HeaderSlot, body: HeaderBody)?
        for index in order {
            guard let slot = slots[index] else { continue }
            if chosen != nil && !checkEverySlot { break }
            do {
                let body = try decodeBody(of: slot)
                if chosen == nil { chosen = (slot, body) }
            } catch {
                problems[index] = error
                slots[index] = nil
            }
        }
        guard let chosen else { throw Self.bestError(problems) }
        let statuses = (0..<FileLayout.slotCount).map { index in
            HeaderSlotStatus(
                index: index,
                generation: problems[index] == nil ? slots[index]?.generation : nil,
                problem: problems[index].map { $0.message },
                isEmpty: problems[index] == nil && slots[index] == nil,
                isActive: index == chosen.slot.slotIndex)
        }
        let other = slots[1 - chosen.slot.slotIndex]
        return Loaded(slot: chosen.slot, body: chosen.body, statuses: statuses, otherSlot: other)
    }

    /// The error that best explains why no slot is usable: a newer version beats corruption,
    /// and a file with no magic at all is not a cache file.
    private static func bestError(_ problems: [SparseFileError?]) -> SparseFileError {
        let errors = problems.compactMap { $0 }
        if let io = errors.first(where: { $0.code == .ioFailure }) { return io }
        if let newer = errors.first(where: { $0.code == .unsupportedVersion }) { return newer }
        // A file is ours when any slot carries the magic; only then is damage "corrupt".
        if errors.allSatisfy({ $0.code == .notACacheFile }), let notOurs = errors.first { return notOurs }
        let reasons = errors.filter { $0.code != .notACacheFile }.map { $0.message }.joined(separator: "; ")
        return .corrupt("no valid header slot: \(reasons)")
    }

    func decodeBody(of slot: HeaderSlot) throws(SparseFileError) -> HeaderBody {
        let bodyBytes: [UInt8]
        switch slot.storage {
        case .inline:
            bodyBytes = slot.inlineBody
        case .spilled(let offset, _):
            guard slot.bodyLength <= maximumBodyLength, let length = Int(exactly: slot.bodyLength),
                  let storedLength = Int(exactly: slot.storedBodyLength) else {
                throw SparseFileError(.limitExceeded, "spilled header body of \(slot.bodyLength) bytes exceeds the limit of \(maximumBodyLength)")
            }
            let stored = try DataSpace(descriptor: descriptor).readBytes(count: storedLength, at: offset)
            guard stored.count == storedLength else { throw .corrupt("spilled header body is cut short by the end of the file") }
            guard Checksum.of(stored) == slot.bodyChecksum else { throw .corrupt("spilled header body fails its checksum") }
            guard let inflated = Zlib.decompress(stored[...], expectedLength: length) else {
                throw .corrupt("spilled header body does not inflate to its recorded length")
            }
            bodyBytes = inflated
        }
        var body = try HeaderBody.decode(bodyBytes, extentCount: slot.extentCount)
        body.metadata.contentLength = slot.contentLength
        try Self.validate(body, against: slot)
        return body
    }

    /// Cross-checks a decoded table against its slot: byte count, content length, and that every
    /// extent lies in the data space without overlapping another extent or the slot's spill area.
    static func validate(_ body: HeaderBody, against slot: HeaderSlot) throws(SparseFileError) {
        var total: UInt64 = 0
        var dataRanges: [ByteRange] = []
        dataRanges.reserveCapacity(body.extents.count + 1)
        for extent in body.extents {
            let (sum, overflow) = total.addingReportingOverflow(extent.length)
            guard !overflow else { throw .corrupt("range table byte count overflows") }
            total = sum
            guard extent.dataEnd <= slot.dataEnd else {
                throw .corrupt("range \(extent.originalRange) is stored past the end of the data space")
            }
            if let length = slot.contentLength, extent.originalEnd > length {
                throw .corrupt("range \(extent.originalRange) lies past the content length \(length)")
            }
            dataRanges.append(ByteRange(uncheckedFrom: extent.data, to: extent.dataEnd))
        }
        guard total == slot.cachedBytes else {
            throw .corrupt("range table holds \(total) bytes but the header says \(slot.cachedBytes)")
        }
        if case .spilled(let offset, let capacity) = slot.storage {
            dataRanges.append(ByteRange(uncheckedFrom: offset, to: offset + capacity))
        }
        dataRanges.sort()
        for index in dataRanges.indices.dropFirst() where dataRanges[index - 1].end > dataRanges[index].offset {
            throw .corrupt("two ranges share stored bytes at data offset \(dataRanges[index].offset)")
        }
    }
}
