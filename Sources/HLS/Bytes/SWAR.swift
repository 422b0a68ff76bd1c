/// Byte tests on eight bytes at once, in a 64-bit word loaded little-endian (the first byte in
/// the low bits). Each test sets the high bit of every byte that matches; only the lowest set
/// flag is exact where a borrow could propagate, and that is the one callers read.
enum SWAR {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Eight bytes from `base + index`, which must be readable.
    @inline(__always)
    static func load(_ base: UnsafePointer<UInt8>, _ index: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
    }

    /// Flags the bytes of `word` equal to `byte`.
    @inline(__always)
    static func matches(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let difference = word ^ (ones &* UInt64(byte))
        return (difference &- ones) & ~difference & highBits
    }

    /// Flags C0 controls, DEL and non-ASCII bytes.
    @inline(__always)
    static func specialBytes(_ word: UInt64) -> UInt64 {
        let low = word & ~highBits
        // Below 0x20: subtracting from a byte whose high bit is set cannot borrow across bytes.
        let control = ~((low | highBits) &- ones &* 0x20) & highBits
        // 0x7F: adding one sets the high bit of that byte only.
        let delete = (low &+ ones) & highBits
        return control | delete | (word & highBits)
    }

    /// Flags the bytes that are not ASCII digits.
    @inline(__always)
    static func nonDigits(_ word: UInt64) -> UInt64 {
        let low = word & ~highBits
        let below = ~((low | highBits) &- ones &* 0x30) & highBits
        let above = (low &+ ones &* 0x46) & highBits
        return below | above | (word & highBits)
    }

    /// Flags the bytes that are not hexadecimal digits (`0-9`, `A-F`, `a-f`).
    @inline(__always)
    static func nonHexDigits(_ word: UInt64) -> UInt64 {
        let low = word & ~highBits
        let digit = (low &+ ones &* 0x50) & ~(low &+ ones &* 0x46)
        // Setting the 0x20 bit folds A-F onto a-f (and nothing else onto them).
        let folded = low | ones &* 0x20
        let letter = (folded &+ ones &* 0x1F) & ~(folded &+ ones &* 0x19)
        return (~(digit | letter) | word) & highBits
    }

    /// The index (0...8) of the first flagged byte; 8 when none is.
    @inline(__always)
    static func firstFlagged(_ flags: UInt64) -> Int {
        flags.trailingZeroBitCount &>> 3
    }
}
