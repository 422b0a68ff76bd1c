/// The number grammars of RFC 8216 section 4.2, parsed over bytes without going through `Double`
/// or `String`, with every overflow reported instead of wrapped or trapped.
enum NumberSyntax {
    /// `decimal-integer`: 1 to 20 digits, at most 2^64-1. Nil when malformed or out of range.
    @inline(__always)
    static func decimalInteger(_ base: UnsafePointer<UInt8>, _ span: ByteSpan) -> UInt64? {
        var index = span.lowerBound
        let end = span.upperBound
        guard index < end else { return nil }
        var value: UInt64 = 0
        // Eight digits at a time while they cannot overflow (16 digits fit in 64 bits).
        while end - index >= 8 && index - span.lowerBound <= 8 {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            guard let eight = eightDigits(word) else { break }
            value = value &* 100_000_000 &+ eight
            index += 8
        }
        while index < end {
            let digit = base[index] &- ASCII.zero
            guard digit < 10 else { return nil }
            // Nineteen digits always fit in 64 bits; only longer numbers need checking.
            if index - span.lowerBound < 19 {
                value = value &* 10 &+ UInt64(digit)
            } else {
                let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
                guard !overflow1 && !overflow2 else { return nil }
                value = sum
            }
            index += 1
        }
        return value
    }

    /// The value of eight ASCII digits loaded little-endian (first digit in the low byte), or
    /// nil when one of the bytes is not a digit.
    @inline(__always)
    static func eightDigits(_ word: UInt64) -> UInt64? {
        let highNibbles: UInt64 = 0xF0F0_F0F0_F0F0_F0F0
        let zeros: UInt64 = 0x3030_3030_3030_3030
        // Every byte is 0x30...0x39: its high nibble is 3, and adding 6 does not carry into it.
        guard word & highNibbles == zeros, (word &+ 0x0606_0606_0606_0606) & highNibbles == zeros else { return nil }
        var value = word &- zeros
        value = (value &* 10 &+ (value >> 8)) & 0x00FF_00FF_00FF_00FF
        value = (value &* 100 &+ (value >> 16)) & 0x0000_FFFF_0000_FFFF
        return (value &* 10_000 &+ (value >> 32)) & 0xFFFF_FFFF
    }

    /// What a `decimal-floating-point` (or, with a leading minus, `signed-decimal-floating-point`)
    /// scan found.
    struct DecimalScan {
        /// Bytes of the longest well-formed prefix (0 when there is none).
        var length: Int
        var isNegative: Bool
        /// The value rounded to the nearest integer (halves up), saturating at `UInt64.max`.
        var rounded: UInt64
    }

    /// Scans the longest prefix of `span` that is a decimal floating-point number:
    /// an optional minus, digits, an optional dot and digits, with at least one digit.
    @inline(__always)
    static func decimalPrefix(_ base: UnsafePointer<UInt8>, _ span: ByteSpan) -> DecimalScan {
        var index = span.lowerBound
        let end = span.upperBound
        var isNegative = false
        if index < end && base[index] == ASCII.minus {
            isNegative = true
            index += 1
        }
        let integerStart = index
        var integer: UInt64 = 0
        var saturated = false
        while index < end {
            let digit = base[index] &- ASCII.zero
            if digit >= 10 { break }
            // Nineteen digits always fit in 64 bits; only longer numbers need checking.
            if index - integerStart < 19 {
                integer = integer &* 10 &+ UInt64(digit)
            } else {
                let (times10, overflow1) = integer.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
                if overflow1 || overflow2 { saturated = true } else { integer = sum }
            }
            index += 1
        }
        var digits = index - integerStart
        var roundUp = false
        if index < end && base[index] == ASCII.dot {
            let dot = index
            index += 1
            let fractionStart = index
            if index < end { roundUp = base[index] &- ASCII.zero < 10 && base[index] >= ASCII.zero + 5 }
            while index < end && base[index] &- ASCII.zero < 10 { index += 1 }
            digits += index - fractionStart
            if digits == 0 { index = dot }
        }
        guard digits > 0 else { return DecimalScan(length: 0, isNegative: false, rounded: 0) }
        var rounded = saturated ? UInt64.max : integer
        if roundUp && rounded < UInt64.max { rounded += 1 }
        return DecimalScan(length: index - span.lowerBound, isNegative: isNegative, rounded: rounded)
    }

    /// True when all of `span` is a decimal floating-point number (signed when `allowSign`).
    static func isDecimal(_ base: UnsafePointer<UInt8>, _ span: ByteSpan, allowSign: Bool) -> Bool {
        let scan = decimalPrefix(base, span)
        return scan.length > 0 && scan.length == span.count && (allowSign || !scan.isNegative)
    }

    /// `hexadecimal-sequence`: `0x` or `0X` and at least one hex digit.
    static func isHexadecimal(_ base: UnsafePointer<UInt8>, _ span: ByteSpan) -> Bool {
        guard span.count > 2, base[span.lowerBound] == ASCII.zero else { return false }
        let x = base[span.lowerBound + 1]
        guard x == ASCII.lowerX || x == ASCII.upperX else { return false }
        for index in (span.lowerBound + 2)..<span.upperBound where ASCII.hexValue(base[index]) == nil {
            return false
        }
        return true
    }

    /// `decimal-resolution`: two decimal-integers separated by `x`.
    static func resolution(_ base: UnsafePointer<UInt8>, _ span: ByteSpan) -> (width: UInt64, height: UInt64)? {
        var separator = span.lowerBound
        while separator < span.upperBound && base[separator] != ASCII.lowerX { separator += 1 }
        guard separator < span.upperBound,
              let width = decimalInteger(base, ByteSpan(span.lowerBound, separator)),
              let height = decimalInteger(base, ByteSpan(separator + 1, span.upperBound))
        else { return nil }
        return (width, height)
    }

    /// A byte range `n[@o]` as EXT-X-BYTERANGE and the BYTERANGE attributes spell it.
    enum ByteRangeSyntax {
        case valid(length: UInt64, offset: UInt64?)
        case malformed
    }

    static func byteRange(_ base: UnsafePointer<UInt8>, _ span: ByteSpan) -> ByteRangeSyntax {
        var at = span.lowerBound
        while at < span.upperBound && ASCII.isDigit(base[at]) { at += 1 }
        guard let length = decimalInteger(base, ByteSpan(span.lowerBound, at)) else { return .malformed }
        if at == span.upperBound { return .valid(length: length, offset: nil) }
        guard base[at] == ASCII.at, let offset = decimalInteger(base, ByteSpan(at + 1, span.upperBound)) else {
            return .malformed
        }
        return .valid(length: length, offset: offset)
    }
}
