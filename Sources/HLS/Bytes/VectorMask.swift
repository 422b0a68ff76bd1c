/// Reading the result of a 16-byte vector comparison.
enum VectorMask {
    /// The index of the first true lane of a mask with at least one.
    @inline(__always)
    static func firstSet(_ mask: SIMDMask<SIMD16<Int8>>) -> Int {
        // A true lane is a byte of all ones; the two halves as words give its position.
        let lanes = unsafeBitCast(mask, to: SIMD2<UInt64>.self)
        if lanes[0] != 0 { return lanes[0].trailingZeroBitCount &>> 3 }
        return 8 &+ lanes[1].trailingZeroBitCount &>> 3
    }
}
