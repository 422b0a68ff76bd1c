import CXXHash

/// XXH3-64 checksums as the format uses them. Block checksums are seeded with the block number
/// so that a block written to the wrong place, or a checksum entry copied to the wrong slot,
/// fails verification instead of matching.
enum Checksum {
    static func of(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        XXH3_64bits_withSeed(bytes.baseAddress, bytes.count, seed)
    }

    static func of(_ bytes: [UInt8], seed: UInt64 = 0) -> UInt64 {
        bytes.withUnsafeBytes { of($0, seed: seed) }
    }

    static func ofBlock(_ bytes: UnsafeRawBufferPointer, block: UInt64) -> UInt64 {
        of(bytes, seed: block)
    }
}
