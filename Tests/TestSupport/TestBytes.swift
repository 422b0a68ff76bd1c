#if canImport(Glibc)
import Glibc
#endif

/// Deterministic pseudo-random bytes (SplitMix64 of each 8-byte word), so every test can
/// recompute the exact "origin" bytes of any range instead of keeping them around.
public struct TestBytes: Sendable {
    public let seed: UInt64

    public init(seed: UInt64) { self.seed = seed }

    private func word(_ index: UInt64) -> UInt64 {
        var z = (index &+ seed) &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    public func byte(at position: UInt64) -> UInt8 {
        UInt8(truncatingIfNeeded: word(position / 8) >> ((position % 8) * 8))
    }

    public func bytes(_ offset: UInt64, _ count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var index = 0
            // Unaligned head, then whole words, then the tail.
            while index < count && (offset + UInt64(index)) % 8 != 0 {
                buffer[index] = byte(at: offset + UInt64(index))
                index += 1
            }
            while count - index >= 8 {
                let value = word((offset + UInt64(index)) / 8)
                for shift in 0..<8 { buffer[index + shift] = UInt8(truncatingIfNeeded: value >> UInt64(shift * 8)) }
                index += 8
            }
            while index < count {
                buffer[index] = byte(at: offset + UInt64(index))
                index += 1
            }
            initialized = count
        }
    }

    /// Whether `bytes` are the origin's bytes from `offset` on (memcmp: fast even in debug builds).
    public func matches(_ bytes: [UInt8], at offset: UInt64) -> Bool {
        let expected = self.bytes(offset, bytes.count)
        return bytes.withUnsafeBytes { lhs in
            expected.withUnsafeBytes { rhs in
                guard let left = lhs.baseAddress, let right = rhs.baseAddress else { return bytes.isEmpty }
                return memcmp(left, right, bytes.count) == 0
            }
        }
    }
}

/// A small seeded generator so failures reproduce.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Whether two byte sequences are equal, compared with `memcmp` when both are contiguous:
/// comparing megabytes element by element in a debug build keeps a thread of the cooperative
/// pool busy for a second, and starves the proxy a test runs beside.
public func sameBytes<A: Sequence<UInt8>, B: Sequence<UInt8>>(_ lhs: A, _ rhs: B) -> Bool {
    let compared = lhs.withContiguousStorageIfAvailable { left in
        rhs.withContiguousStorageIfAvailable { right -> Bool in
            guard left.count == right.count else { return false }
            guard let leftBase = left.baseAddress, let rightBase = right.baseAddress else { return true }
            return memcmp(leftBase, rightBase, left.count) == 0
        }
    }
    if let compared, let compared { return compared }
    return lhs.elementsEqual(rhs)
}
