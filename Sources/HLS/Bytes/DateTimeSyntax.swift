/// The `date-time` of RFC 8216 (ISO 8601 / RFC 3339): `YYYY-MM-DDThh:mm:ss[.fff](Z|+hh:mm|-hh:mm)`.
///
/// Only the shape is checked; a player that needs the instant parses the string itself.
/// A missing time zone and a missing seconds fraction are accepted, as players accept them.
enum DateTimeSyntax {
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
        guard digits(2) else { return false }
        if index < end && base[index] == ASCII.colon { index += 1 }
        guard digits(2) else { return false }
        return index == end
    }
}
