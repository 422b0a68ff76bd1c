#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

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

    /// One bit per lane, lane 0 in the lowest bit. On x86-64 one instruction (`pmovmskb`, in
    /// SSE2, which every x86-64 processor has); elsewhere ``portableBits(_:)``.
    @inline(__always)
    static func bits(_ mask: SIMDMask<SIMD16<Int8>>) -> UInt64 {
        #if arch(x86_64)
        UInt64(truncatingIfNeeded: UInt16(truncatingIfNeeded: _mm_movemask_epi8(unsafeBitCast(mask, to: __m128i.self))))
        #else
        portableBits(mask)
        #endif
    }

    /// ``bits(_:)`` with word arithmetic: each half's lanes (bytes of all ones or all zeros),
    /// one bit kept per byte at that byte's index, are summed into the top byte by a multiply.
    @inline(__always)
    static func portableBits(_ mask: SIMDMask<SIMD16<Int8>>) -> UInt64 {
        let lanes = unsafeBitCast(mask, to: SIMD2<UInt64>.self)
        let weights: UInt64 = 0x8040_2010_0804_0201
        let low = ((lanes[0] & weights) &* 0x0101_0101_0101_0101) &>> 56
        let high = ((lanes[1] & weights) &* 0x0101_0101_0101_0101) &>> 56
        return low | high &<< 8
    }
}
