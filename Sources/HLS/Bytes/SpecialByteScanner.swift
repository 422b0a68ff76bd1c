/// Finds the next byte that needs attention while splitting lines: a C0 control (which includes
/// CR and LF), DEL, or a non-ASCII byte (which starts a UTF-8 sequence to validate).
///
/// Eight bytes are tested per step with SWAR arithmetic, so ASCII text costs one load, a few
/// arithmetic operations and one branch per word instead of a branch per byte.
enum SpecialByteScanner {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The index of the first special byte in `start..<end`, or `end` when there is none.
    @inline(__always)
    static func firstSpecialByte(in base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        var index = start
        let raw = UnsafeRawPointer(base)
        while index &+ 8 <= end {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            // Bytes below 0x20: the classic "has less than" test. The lowest flagged byte is
            // exact because a borrow only propagates upward from a byte that really is below.
            let control = (word &- ones &* 0x20) & ~word & highBits
            let deleteBytes = word ^ (ones &* 0x7F)
            let delete = (deleteBytes &- ones) & ~deleteBytes & highBits
            let nonASCII = word & highBits
            let flagged = control | delete | nonASCII
            if flagged != 0 {
                return index &+ flagged.trailingZeroBitCount >> 3
            }
            index &+= 8
        }
        while index < end {
            let byte = base[index]
            if byte < 0x20 || byte >= 0x7F { return index }
            index &+= 1
        }
        return end
    }
}
