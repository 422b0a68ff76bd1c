/// 64-bit FNV-1a, for hashing short byte strings in place.
enum FNV1a {
    static let offsetBasis: UInt64 = 0xCBF2_9CE4_8422_2325
    static let prime: UInt64 = 0x0000_0100_0000_01B3

    static func hash(_ base: UnsafePointer<UInt8>, _ span: ByteSpan, seed: UInt64 = offsetBasis) -> UInt64 {
        var hash = seed
        for index in span.lowerBound..<max(span.lowerBound, span.upperBound) {
            hash = (hash ^ UInt64(base[index])) &* prime
        }
        return hash
    }

    static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
        bytes.reduce(offsetBasis) { ($0 ^ UInt64($1)) &* prime }
    }
}
