/// The number grammars of RFC 8216 section 4.2, parsed over bytes without going through `Double`
/// or `String`, with every overflow reported instead of wrapped or trapped.
///
/// Each grammar has a general scan, a byte at a time, and a short path for the numbers
/// playlists are made of (at most fifteen digits in a row, with sixteen readable bytes): two
/// word loads find the digits and word arithmetic converts them (`NumberSyntax+Words.swift`).
/// The short path gives up, to the general scan, on anything else. `readableEnd` is where
/// readable memory ends, at or after the span's end.
enum NumberSyntax {
    /// `decimal-integer`: 1 to 20 digits, at most 2^64-1. Nil when malformed or out of range.
    @inline(__always)
    static func decimalInteger(_ base: UnsafePointer<UInt8>, _ span: ByteSpan, readableEnd: Int) -> UInt64? {
        guard let run = shortDigitRun(base, span.lowerBound, span.upperBound, readableEnd: readableEnd) else {
            return decimalInteger(base, span)
        }
        return run.count == span.count && run.count > 0 ? run.value : nil
    }

    /// `decimal-integer`, a byte at a time.
    static func decimalInteger(_ base: UnsafePointer<UInt8>, _ span: ByteSpan) -> UInt64? {
        var index = span.lowerBound
        let end = span.upperBound
        guard index < end else { return nil }
        var value: UInt64 = 0
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
    static func decimalPrefix(_ base: UnsafePointer<UInt8>, _ span: ByteSpan, readableEnd: Int) -> DecimalScan {
        let start = span.lowerBound
        let end = span.upperBound
        guard start < end, base[start] != ASCII.minus,
              let integer = shortDigitRun(base, start, end, readableEnd: readableEnd)
        else { return decimalPrefix(base, span) }
        let dot = start &+ integer.count
        guard dot < end && base[dot] == ASCII.dot else {
            return DecimalScan(length: integer.count, isNegative: false, rounded: integer.value)
        }
        let fractionStart = dot &+ 1
        guard let fraction = shortDigitRun(base, fractionStart, end, readableEnd: readableEnd) else {
            return decimalPrefix(base, span)
        }
        guard integer.count > 0 || fraction.count > 0 else {
            return DecimalScan(length: 0, isNegative: false, rounded: 0)
        }
        let roundUp = fraction.count > 0 && base[fractionStart] >= ASCII.zero &+ 5
        return DecimalScan(length: fractionStart &+ fraction.count &- start, isNegative: false,
                           rounded: roundUp ? integer.value &+ 1 : integer.value)
    }

    /// `decimalPrefix`, a byte at a time.
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
    static func isDecimal(_ base: UnsafePointer<UInt8>, _ span: ByteSpan, allowSign: Bool, readableEnd: Int) -> Bool {
        let scan = decimalPrefix(base, span, readableEnd: readableEnd)
        return scan.length > 0 && scan.length == span.count && (allowSign || !scan.isNegative)
    }

    /// `hexadecimal-sequence`: `0x` or `0X` and at least one hex digit, eight digits per word.
    static func isHexadecimal(_ base: UnsafePointer<UInt8>, _ span: ByteSpan, readableEnd: Int) -> Bool {
        guard span.count > 2, base[span.lowerBound] == ASCII.zero else { return false }
        let x = base[span.lowerBound + 1]
        guard x == ASCII.lowerX || x == ASCII.upperX else { return false }
        var index = span.lowerBound + 2
        let end = span.upperBound
        while index < end && index &+ 8 <= readableEnd {
            if SWAR.nonHexDigits(SWAR.load(base, index)) & lowBytes(end &- index) != 0 { return false }
            index &+= 8
        }
        while index < end {
            if ASCII.hexValue(base[index]) == nil { return false }
            index &+= 1
        }
        return true
    }

    /// `decimal-resolution`: two decimal-integers separated by `x`.
    static func resolution(_ base: UnsafePointer<UInt8>, _ span: ByteSpan, readableEnd: Int)
        -> (width: UInt64, height: UInt64)? {
        // A resolution's width is digits up to the `x`: the first non-digit must be it. The
        // short path reads the width with word arithmetic.
        if let width = shortDigitRun(base, span.lowerBound, span.upperBound, readableEnd: readableEnd) {
            let separator = span.lowerBound &+ width.count
            guard width.count > 0, separator < span.upperBound, base[separator] == ASCII.lowerX,
                  let height = decimalInteger(base, ByteSpan(separator &+ 1, span.upperBound), readableEnd: readableEnd)
            else { return nil }
            return (width.value, height)
        }
        var separator = span.lowerBound
        while separator < span.upperBound && ASCII.isDigit(base[separator]) { separator += 1 }
        guard separator < span.upperBound, base[separator] == ASCII.lowerX,
              let width = decimalInteger(base, ByteSpan(span.lowerBound, separator), readableEnd: readableEnd),
              let height = decimalInteger(base, ByteSpan(separator + 1, span.upperBound), readableEnd: readableEnd)
        else { return nil }
        return (width, height)
    }

    /// A byte range `n[@o]` as EXT-X-BYTERANGE and the BYTERANGE attributes spell it.
    enum ByteRangeSyntax {
        case valid(length: UInt64, offset: UInt64?)
        case malformed
    }

    static func byteRange(_ base: UnsafePointer<UInt8>, _ span: ByteSpan, readableEnd: Int) -> ByteRangeSyntax {
        let start = span.lowerBound
        let end = span.upperBound
        let at: Int
        let length: UInt64
        if let run = shortDigitRun(base, start, end, readableEnd: readableEnd) {
            guard run.count > 0 else { return .malformed }
            at = start &+ run.count
            length = run.value
        } else {
            var index = start
            while index < end && ASCII.isDigit(base[index]) { index += 1 }
            guard let value = decimalInteger(base, ByteSpan(start, index)) else { return .malformed }
            at = index
            length = value
        }
        if at == end { return .valid(length: length, offset: nil) }
        guard base[at] == ASCII.at,
              let offset = decimalInteger(base, ByteSpan(at &+ 1, end), readableEnd: readableEnd)
        else { return .malformed }
        return .valid(length: length, offset: offset)
    }
}
