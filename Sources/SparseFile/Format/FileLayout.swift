/// The fixed geometry of a version-1 sparse cache file (see Docs/FORMAT.md, "Layout").
///
/// The file starts with a 2 MiB header area (two 4 KiB header slots; the rest is reserved and
/// left as a hole), followed by the data space. The data space is a dense run of bytes,
/// addressed by *data offsets* starting at 0, stored in groups: each group is a 2 MiB checksum
/// region (262,144 little-endian XXH3-64 values) followed by the 1 GiB of data blocks it
/// covers. Every data byte sits at the same offset modulo 2 MiB in the file as in the data
/// space, so aligned appends and reads stay aligned for the kernel's page cache (large
/// folios), and data offsets map to file offsets by arithmetic alone.
enum FileLayout {
    static let slotSize = 4096
    static let slotCount = 2
    static let dataSpaceFileOffset: UInt64 = 2 << 20

    static let blockSizeLog2: UInt8 = 12
    static let blocksPerGroupLog2: UInt8 = 18
    static let blockSize: UInt64 = 1 << 12
    static let blocksPerGroup: UInt64 = 1 << 18
    static let checksumSize: UInt64 = 8
    /// The checksum region at the start of each group (2 MiB).
    static let checksumRegionSize: UInt64 = blocksPerGroup * checksumSize
    /// Data bytes per group (1 GiB).
    static let groupDataSize: UInt64 = blockSize * blocksPerGroup
    /// File bytes per group: the checksum region plus the data blocks.
    static let groupFileSize: UInt64 = checksumRegionSize + groupDataSize

    static func slotFileOffset(_ index: Int) -> UInt64 { UInt64(index * slotSize) }

    /// The file offset of the data byte at `dataOffset`.
    static func fileOffset(ofData dataOffset: UInt64) -> UInt64 {
        let group = dataOffset / groupDataSize
        return dataSpaceFileOffset + group * groupFileSize + checksumRegionSize + dataOffset % groupDataSize
    }

    /// How many data bytes from `dataOffset` on are stored contiguously in the file.
    static func contiguousDataLength(from dataOffset: UInt64) -> UInt64 {
        groupDataSize - dataOffset % groupDataSize
    }

    /// The file offset of the checksum entry of data block `block`.
    static func fileOffset(ofChecksumFor block: UInt64) -> UInt64 {
        let group = block / blocksPerGroup
        return dataSpaceFileOffset + group * groupFileSize + (block % blocksPerGroup) * checksumSize
    }

    /// The file size that holds the data space up to `dataEnd`: every checksum region of the
    /// groups it touches and the data bytes themselves.
    static func fileSize(forDataEnd dataEnd: UInt64) -> UInt64 {
        guard dataEnd > 0 else { return dataSpaceFileOffset }
        return fileOffset(ofData: dataEnd - 1) + 1
    }

    /// The largest data end whose file size still fits in a signed 64-bit `off_t`.
    static let maximumDataEnd: UInt64 = (UInt64(Int64.max) / groupFileSize - 1) * groupDataSize

    static func block(containing dataOffset: UInt64) -> UInt64 { dataOffset >> UInt64(blockSizeLog2) }
    static func blockStart(_ block: UInt64) -> UInt64 { block << UInt64(blockSizeLog2) }
    static func alignUp(_ dataOffset: UInt64) -> UInt64 {
        (dataOffset + blockSize - 1) & ~(blockSize - 1)
    }
}
