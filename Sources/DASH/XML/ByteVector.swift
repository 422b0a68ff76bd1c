#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// Sixteen input bytes at a time, for the tokenizer's scans over runs of plain bytes: the
/// indentation between elements and the text of attribute values. One vector comparison per
/// kind of byte and a bit mask of the lanes replace a table lookup and a branch per byte.
enum ByteVector {
    typealias Lanes = SIMD16<UInt8>
    typealias Mask = SIMDMask<SIMD16<Int8>>

    /// The 16 bytes from `base + offset`, which must all be readable.
    @inline(__always)
    static func load(_ base: UnsafePointer<UInt8>, _ offset: Int) -> Lanes {
        UnsafeRawPointer(base + offset).loadUnaligned(as: Lanes.self)
    }

    /// The lanes equal to `byte`. (The splat is spelled with its type: inferred, it defeats
    /// vectorization.)
    @inline(__always)
    static func equal(_ lanes: Lanes, _ byte: UInt8) -> Mask {
        lanes .== Lanes(repeating: byte)
    }

    /// The lanes below 0x20 or from 0x80 on (control characters and non-ASCII bytes): one
    /// signed comparison finds both.
    @inline(__always)
    static func controlOrNonASCII(_ lanes: Lanes) -> Mask {
        unsafeBitCast(lanes, to: SIMD16<Int8>.self) .< SIMD16<Int8>(repeating: 0x20)
    }

    /// The index of the first true lane, or 16 when there is none.
    @inline(__always)
    static func firstSet(_ mask: Mask) -> Int {
        #if arch(x86_64)
        let bits = UInt32(truncatingIfNeeded: UInt16(truncatingIfNeeded: _mm_movemask_epi8(unsafeBitCast(mask, to: __m128i.self))))
        return (bits | 0x1_0000).trailingZeroBitCount
        #else
        // A true lane is a byte of all ones; the two halves as words give its position.
        let halves = unsafeBitCast(mask, to: SIMD2<UInt64>.self)
        if halves[0] != 0 { return halves[0].trailingZeroBitCount &>> 3 }
        return 8 &+ (halves[1].trailingZeroBitCount &>> 3)
        #endif
    }
}
