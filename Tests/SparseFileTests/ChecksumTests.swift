import CChecksum
import Testing
import TestSupport
@testable import SparseFile

@Suite("XXH3 checksums")
struct ChecksumTests {
    @Test(arguments: [0, 1, 3, 17, 128, 240, 241, 1023, 1024, 4096, 4097, 65_536, 1_000_003])
    func theVectorizedHashMatchesTheSystemLibrary(length: Int) {
        var generator = SeededGenerator(seed: UInt64(length))
        let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for seed: UInt64 in [0, 1, 0xDEAD_BEEF, UInt64.max] {
            bytes.withUnsafeBytes { buffer in
                #expect(sparsecache_xxh3_64(buffer.baseAddress, length, seed)
                        == sparsecache_xxh3_64_library(buffer.baseAddress, length, seed))
            }
        }
    }

    @Test func aKnownVectorHashesToTheReferenceValue() {
        // XXH3_64bits("") with seed 0, from the xxHash reference test vectors.
        #expect(Checksum.of([], seed: 0) == 0x2D06_8005_38D3_94C2)
    }
}
