/// Deterministic pseudo-random bytes (SplitMix64), so every test can recompute the exact
/// "origin" bytes of any range instead of keeping them around.
struct TestBytes {
    let seed: UInt64

    func byte(at position: UInt64) -> UInt8 {
        var z = (position / 8 &+ seed) &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return UInt8(truncatingIfNeeded: z >> ((position % 8) * 8))
    }

    func bytes(_ offset: UInt64, _ count: Int) -> [UInt8] {
        (0..<UInt64(count)).map { byte(at: offset + $0) }
    }
}

/// A small seeded generator so failures reproduce.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
