/// Word arithmetic for the short path of the number grammars: finding a run of digits with two
/// 64-bit loads and converting up to eight digits at a time without a loop.
extension NumberSyntax {
    /// The run of digits at `start`, cut at `end`, and its value: for runs of at most fifteen
    /// digits when sixteen bytes from `start` are readable. Nil otherwise (a longer run, which
    /// may overflow, or the end of the input is near), for the general scan to handle.
    @inline(__always)
    static func shortDigitRun(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, readableEnd: Int)
        -> (count: Int, value: UInt64)? {
        guard start &+ 16 <= readableEnd, start <= end else { return nil }
        let first = SWAR.load(base, start)
        let firstCount = min(SWAR.firstFlagged(SWAR.nonDigits(first)), end &- start)
        if firstCount < 8 {
            return (firstCount, firstCount == 0 ? 0 : digitsValue(first, firstCount))
        }
        let secondCount = min(SWAR.firstFlagged(SWAR.nonDigits(SWAR.load(base, start &+ 8))), end &- start &- 8)
        guard secondCount < 8 else { return nil }
        if secondCount == 0 { return (8, eightDigitsValue(first)) }
        // The last eight digits as one word, the ones before them as another.
        let last = eightDigitsValue(SWAR.load(base, start &+ secondCount))
        return (8 &+ secondCount, digitsValue(first, secondCount) &* 100_000_000 &+ last)
    }

    /// A mask of the low `count` bytes of a word (`count` at least 0; 8 or more is all bytes).
    @inline(__always)
    static func lowBytes(_ count: Int) -> UInt64 {
        count >= 8 ? ~0 : (1 &<< (UInt64(count) &* 8)) &- 1
    }

    /// The value of the first `count` (1...8) bytes of `word`, which are digits: they are moved
    /// to the top of the word and the bytes below them filled with zeros.
    @inline(__always)
    static func digitsValue(_ word: UInt64, _ count: Int) -> UInt64 {
        let shift = UInt64(8 &- count) &* 8
        let zeros: UInt64 = 0x3030_3030_3030_3030
        return eightDigitsValue((word &<< shift) | (zeros & ~(~0 &<< shift)))
    }

    /// The value of eight ASCII digits loaded little-endian (first digit in the low byte), which
    /// the caller has checked are digits.
    @inline(__always)
    static func eightDigitsValue(_ word: UInt64) -> UInt64 {
        var value = word &- 0x3030_3030_3030_3030
        value = (value &* 10 &+ (value >> 8)) & 0x00FF_00FF_00FF_00FF
        value = (value &* 100 &+ (value >> 16)) & 0x0000_FFFF_0000_FFFF
        return (value &* 10_000 &+ (value >> 32)) & 0xFFFF_FFFF
    }
}
