/// Finds the next byte that needs attention while splitting lines: a C0 control (which includes
/// CR and LF), DEL, or a non-ASCII byte (which starts a UTF-8 sequence to validate).
///
/// Sixty-four bytes are tested per step with four vector comparisons (SSE2 or NEON), then
/// sixteen, so ASCII text costs under one instruction per byte; the SWAR word test finishes
/// the last bytes.
enum SpecialByteScanner {
    /// The index of the first special byte in `start..<end`, or `end` when there is none.
    @inline(__always)
    static func firstSpecialByte(in base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        var index = start
        let raw = UnsafeRawPointer(base)
        // Long lines (attribute lists of multivariant playlists, signed URIs): 64 bytes per
        // step, the special byte found in one 64-bit mask (where in it follows no pattern).
        while index &+ 64 <= end {
            let found = VectorMask.bits(flags(raw, index)) | VectorMask.bits(flags(raw, index &+ 16)) &<< 16
                | VectorMask.bits(flags(raw, index &+ 32)) &<< 32 | VectorMask.bits(flags(raw, index &+ 48)) &<< 48
            if found != 0 { return index &+ found.trailingZeroBitCount }
            index &+= 64
        }
        while index &+ 16 <= end {
            let flagged = flags(raw, index)
            if any(flagged) {
                return index &+ VectorMask.firstSet(flagged)
            }
            index &+= 16
        }
        while index &+ 8 <= end {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let flagged = SWAR.specialBytes(word)
            if flagged != 0 { return index &+ flagged.trailingZeroBitCount &>> 3 }
            index &+= 8
        }
        while index < end {
            let byte = base[index]
            if byte < 0x20 || byte >= 0x7F { return index }
            index &+= 1
        }
        return end
    }

    /// The special bytes of the sixteen at `index`.
    @inline(__always)
    private static func flags(_ raw: UnsafeRawPointer, _ index: Int) -> SIMDMask<SIMD16<Int8>> {
        // As signed bytes, 0x80...0xFF are negative: one "less than 0x20" test finds the
        // controls and the non-ASCII bytes together. The splats are spelled with their type:
        // inferred, they defeat vectorization.
        let vector = raw.loadUnaligned(fromByteOffset: index, as: SIMD16<Int8>.self)
        return (vector .< SIMD16<Int8>(repeating: 0x20)) .| (vector .== SIMD16<Int8>(repeating: 0x7F))
    }
}
