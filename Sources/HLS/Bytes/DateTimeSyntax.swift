/// The `date-time` of RFC 8216 (ISO 8601 / RFC 3339): `YYYY-MM-DDThh:mm:ss[.fff](Z|+hh:mm|-hh:mm)`.
///
/// Only the shape is checked; a player that needs the instant parses the string itself.
/// A missing time zone and a missing seconds fraction are accepted, as players accept them.
enum DateTimeSyntax {
    /// The 19-byte head `YYYY-MM-DDThh:mm:ss` as three little-endian words: which bytes are
    /// digits, which are separators, and the separators' values (`t` for `T`: the check sets
    /// the 0x20 bit of that byte, so that `T` and `t` compare equal).
    private static let digitMasks: (UInt64, UInt64, UInt64) = (0x00FF_FF00_FFFF_FFFF, 0xFFFF_00FF_FF00_FFFF,
                                                              0x0000_0000_00FF_FF00)
    private static let separatorMasks: (UInt64, UInt64, UInt64) = (0xFF00_00FF_0000_0000, 0x0000_FF00_00FF_0000,
                                                                  0x0000_0000_0000_00FF)
    private static let separators: (UInt64, UInt64, UInt64) = (0x2D00_002D_0000_0000, 0x0000_3A00_0074_0000,
                                                              0x0000_0000_0000_003A)
    private static let lowerCaseT: UInt64 = 0x0000_0000_0020_0000

    /// True when `span` is a date-time. Reads up to `readableEnd`: the fixed head is checked
    /// with word arithmetic when 24 bytes can be read.
    static func isDateTime(_ base: UnsafePointer<UInt8>, _ span: ByteSpan, readableEnd: Int) -> Bool {
        let start = span.lowerBound
        guard span.count >= 19, start &+ 24 <= readableEnd else { return isDateTime(base, span) }
        let first = SWAR.load(base, start)
        let second = SWAR.load(base, start &+ 8) | lowerCaseT
        let third = SWAR.load(base, start &+ 16)
        guard first & separatorMasks.0 == separators.0, second & separatorMasks.1 == separators.1,
              third & separatorMasks.2 == separators.2,
              onlyDigits(first, digitMasks.0), onlyDigits(second, digitMasks.1), onlyDigits(third, digitMasks.2)
        else { return false }
        return isDateTimeTail(base, start &+ 19, span.upperBound)
    }

    /// The bytes of `word` under `mask` are digits (the others are replaced by `0` first).
    @inline(__always)
    private static func onlyDigits(_ word: UInt64, _ mask: UInt64) -> Bool {
        SWAR.nonDigits((word & mask) | (0x3030_3030_3030_3030 & ~mask)) == 0
    }

    /// The general check, a byte at a time.
    static func isDateTime(_ base: UnsafePointer<UInt8>, _ span: ByteSpan) -> Bool {
        var index = span.lowerBound
        let end = span.upperBound
        func digits(_ count: Int) -> Bool {
            guard end - index >= count else { return false }
            for offset in 0..<count where !ASCII.isDigit(base[index + offset]) { return false }
            index += count
            return true
        }
        func literal(_ byte: UInt8) -> Bool {
            guard index < end, base[index] == byte else { return false }
            index += 1
            return true
        }
        guard digits(4), literal(ASCII.minus), digits(2), literal(ASCII.minus), digits(2) else { return false }
        guard index < end, base[index] == 0x54 || base[index] == 0x74 else { return false }
        index += 1
        guard digits(2), literal(ASCII.colon), digits(2), literal(ASCII.colon), digits(2) else { return false }
        return isDateTimeTail(base, index, end)
    }

    /// After the seconds: an optional fraction, then an optional zone (`Z`, `z`, `+hh:mm`,
    /// `-hh:mm`, `+hhmm`, `-hhmm`).
    private static func isDateTimeTail(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        var index = start
        if index < end && base[index] == ASCII.dot {
            index += 1
            let fractionStart = index
            while index < end && ASCII.isDigit(base[index]) { index += 1 }
            guard index > fractionStart else { return false }
        }
        if index == end { return true }
        if base[index] == 0x5A || base[index] == 0x7A { return index + 1 == end }
        guard base[index] == ASCII.plus || base[index] == ASCII.minus else { return false }
        index += 1
        guard end - index >= 2, ASCII.isDigit(base[index]), ASCII.isDigit(base[index + 1]) else { return false }
        index += 2
        if index < end && base[index] == ASCII.colon { index += 1 }
        guard end - index >= 2, ASCII.isDigit(base[index]), ASCII.isDigit(base[index + 1]) else { return false }
        return index + 2 == end
    }
}
