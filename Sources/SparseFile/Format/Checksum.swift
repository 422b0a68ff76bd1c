import CChecksum

/// XXH3-64 checksums as the format uses them, computed by libxxhash's code (see CChecksum).
/// Block checksums are seeded with the block number so that a block written to the wrong place,
/// or a checksum entry copied to the wrong slot, fails verification instead of matching.
package enum Checksum {
    package static func of(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        sparsecache_xxh3_64(bytes.baseAddress, bytes.count, seed)
    }

    package static func of(_ bytes: [UInt8], seed: UInt64 = 0) -> UInt64 {
        bytes.withUnsafeBytes { of($0, seed: seed) }
    }

    package static func ofBlock(_ bytes: UnsafeRawBufferPointer, block: UInt64) -> UInt64 {
        of(bytes, seed: block)
    }
}
