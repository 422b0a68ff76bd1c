/// The fixed 128-byte part of a header slot and the slot's checksum (Docs/FORMAT.md,
/// "Header slot"). Decoding validates every field of untrusted bytes and never traps.
struct HeaderSlot: Equatable {
    static let magic: [UInt8] = [0x89, 0x53, 0x43, 0x46, 0x0D, 0x0A, 0x1A, 0x0A]
    static let formatVersion: UInt16 = 1
    static let fixedSize = 128
    static let inlineCapacity = FileLayout.slotSize - fixedSize
    static let unknownLength = UInt64.max

    /// Where the body is stored.
    enum BodyStorage: Equatable {
        case inline
        /// zlib-compressed in the spill area `[offset, offset + capacity)` of the data space.
        case spilled(offset: UInt64, capacity: UInt64)
    }

    struct Flags: OptionSet {
        let rawValue: UInt16
        static let spilled = Flags(rawValue: 1)
        static let known: Flags = [.spilled]
    }

    var slotIndex: Int
    var generation: UInt64
    var dataEnd: UInt64
    var contentLength: UInt64?
    var cachedBytes: UInt64
    var extentCount: UInt64
    var tailChecksum: UInt64
    var storage: BodyStorage
    var storedBodyLength: UInt64
    var bodyLength: UInt64
    var bodyChecksum: UInt64
    var createdAt: UInt64
    /// The body bytes when stored inline.
    var inlineBody: [UInt8]

    /// The 4096 bytes of the slot, checksum included.
    func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: FileLayout.slotSize)
        writer.append(contentsOf: Self.magic)
        writer.appendLittleEndian(Self.formatVersion)
        writer.appendLittleEndian(UInt16(slotIndex))
        writer.append(FileLayout.blockSizeLog2)
        writer.append(FileLayout.blocksPerGroupLog2)
        var flags: Flags = []
        var spillOffset: UInt64 = 0
        var spillCapacity: UInt64 = 0
        if case .spilled(let offset, let capacity) = storage {
            flags.insert(.spilled)
            spillOffset = offset
            spillCapacity = capacity
        }
        writer.appendLittleEndian(flags.rawValue)
        for value in [
            generation, dataEnd, contentLength ?? Self.unknownLength, cachedBytes, extentCount,
            tailChecksum, spillOffset, spillCapacity, storedBodyLength, bodyLength, bodyChecksum,
            createdAt, 0,
        ] {
            writer.appendLittleEndian(value)
        }
        writer.appendLittleEndian(UInt64(0))  // slot checksum, filled below
        writer.append(contentsOf: inlineBody)
        var bytes = writer.bytes
        bytes.append(contentsOf: repeatElement(0, count: FileLayout.slotSize - bytes.count))
        let checksum = Self.checksum(of: bytes)
        for index in 0..<8 {
            bytes[Self.checksumOffset + index] = UInt8(truncatingIfNeeded: checksum >> UInt64(8 * index))
        }
        return bytes
    }

    static let checksumOffset = 120

    static func checksum(of slot: [UInt8]) -> UInt64 {
        var copy = slot
        for index in checksumOffset..<checksumOffset + 8 { copy[index] = 0 }
        return Checksum.of(copy, seed: 0x5343_4620_736C_6F74)  // "SCF slot"
    }

    /// Decodes and validates the fixed fields of `bytes`, a whole slot read from `expectedIndex`.
    static func decode(_ bytes: [UInt8], expectedIndex: Int) throws(SparseFileError) -> HeaderSlot {
        guard bytes.count >= magic.count, Array(bytes[0..<magic.count]) == magic else { throw .notACacheFile }
        guard bytes.count == FileLayout.slotSize else {
            throw .corrupt("header slot \(expectedIndex) is truncated (\(bytes.count) of \(FileLayout.slotSize) bytes)")
        }
        var reader = ByteReader(bytes, position: 8)
        guard let version = reader.readLittleEndianUInt16(), let index = reader.readLittleEndianUInt16(),
              let blockLog = reader.readByte(), let groupLog = reader.readByte(),
              let rawFlags = reader.readLittleEndianUInt16() else { throw .corrupt("header slot is truncated") }
        guard version != 0 else { throw .corrupt("header slot \(expectedIndex) has format version 0") }
        guard version <= formatVersion else {
            throw SparseFileError(.unsupportedVersion, "format version \(version) is newer than this reader's \(formatVersion)")
        }
        var fields: [UInt64] = []
        for _ in 0..<14 {
            guard let value = reader.readLittleEndianUInt64() else { throw .corrupt("header slot is truncated") }
            fields.append(value)
        }
        let storedChecksum = fields[13]
        guard storedChecksum == checksum(of: bytes) else {
            throw .corrupt("header slot \(expectedIndex) fails its checksum")
        }
        guard Int(index) == expectedIndex else {
            throw .corrupt("header slot \(expectedIndex) claims to be slot \(index)")
        }
        guard blockLog == FileLayout.blockSizeLog2, groupLog == FileLayout.blocksPerGroupLog2 else {
            throw .corrupt("header slot \(expectedIndex) has an unsupported geometry (2^\(blockLog)-byte blocks, 2^\(groupLog) per group)")
        }
        let flags = Flags(rawValue: rawFlags)
        guard flags.isSubset(of: .known), fields[12] == 0 else {
            throw SparseFileError(.unsupportedVersion, "header slot \(expectedIndex) uses reserved flags or fields")
        }
        var slot = HeaderSlot(
            slotIndex: expectedIndex, generation: fields[0], dataEnd: fields[1],
            contentLength: fields[2] == unknownLength ? nil : fields[2], cachedBytes: fields[3],
            extentCount: fields[4], tailChecksum: fields[5], storage: .inline,
            storedBodyLength: fields[8], bodyLength: fields[9], bodyChecksum: fields[10],
            createdAt: fields[11], inlineBody: [])
        guard slot.generation > 0 else { throw .corrupt("header slot \(expectedIndex) has generation 0") }
        guard slot.dataEnd <= FileLayout.maximumDataEnd else {
            throw .corrupt("header slot \(expectedIndex) has an absurd data end \(slot.dataEnd)")
        }
        if flags.contains(.spilled) {
            let (offset, capacity) = (fields[6], fields[7])
            let (spillEnd, overflow) = offset.addingReportingOverflow(capacity)
            guard !overflow, spillEnd <= slot.dataEnd, offset % FileLayout.blockSize == 0,
                  capacity % FileLayout.blockSize == 0, slot.storedBodyLength <= capacity else {
                throw .corrupt("header slot \(expectedIndex) has a spill area outside the data space")
            }
            guard slot.storedBodyLength > 0,
                  slot.bodyLength / UInt64(Zlib.maximumExpansionRatio) <= slot.storedBodyLength else {
                throw .corrupt("header slot \(expectedIndex) has an absurd spilled body length")
            }
            slot.storage = .spilled(offset: offset, capacity: capacity)
        } else {
            guard fields[6] == 0, fields[7] == 0, slot.storedBodyLength == slot.bodyLength,
                  slot.bodyLength <= UInt64(inlineCapacity) else {
                throw .corrupt("header slot \(expectedIndex) has an inline body of impossible length")
            }
            let length = Int(slot.bodyLength)
            slot.inlineBody = Array(bytes[fixedSize..<fixedSize + length])
            guard Checksum.of(slot.inlineBody) == slot.bodyChecksum else {
                throw .corrupt("header slot \(expectedIndex) body fails its checksum")
            }
        }
        return slot
    }
}
