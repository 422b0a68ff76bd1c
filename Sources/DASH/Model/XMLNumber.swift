/// The number types of the MPD schema, read from attribute values. XML Schema collapses the
/// white space around a number, so it is trimmed first; anything else that is not a digit
/// makes the value invalid (nil).
enum XMLNumber {
    static func trimmed(_ text: String) -> String {
        var value = Substring(text)
        while let first = value.utf8.first, ByteClass.isWhitespace(first) { value = value.dropFirst() }
        while let last = value.utf8.last, ByteClass.isWhitespace(last) { value = value.dropLast() }
        return String(value)
    }

    /// An `xs:unsignedInt` / `xs:unsignedLong`: decimal digits (an optional `+`), at most 2^64-1.
    static func unsigned(_ text: String) -> UInt64? {
        var text = text
        return text.withUTF8 { unsigned(bytes: $0[...]) }
    }

    /// ``unsigned(_:)`` over bytes, for the checker's loops over thousands of `S` elements.
    static func unsigned<Bytes: BidirectionalCollection<UInt8>>(bytes: Bytes) -> UInt64? where Bytes.SubSequence == Bytes {
        var digits = bytes
        while let first = digits.first, ByteClass.isWhitespace(first) { digits = digits.dropFirst() }
        while let last = digits.last, ByteClass.isWhitespace(last) { digits = digits.dropLast() }
        if digits.first == UInt8(ascii: "+") { digits = digits.dropFirst() }
        guard !digits.isEmpty else { return nil }
        var value: UInt64 = 0
        for byte in digits {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(UInt64(byte - 0x30))
            guard !overflow && !overflow2 else { return nil }
            value = sum
        }
        return value
    }

    /// ``unsigned(_:)`` of `bytes[start..<end]`, the checker's fast path for `S@t` and `S@d`.
    @inline(__always)
    static func unsigned(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> UInt64? {
        var first = start
        var last = end
        while first < last && ByteClass.isWhitespace(bytes[first]) { first += 1 }
        while last > first && ByteClass.isWhitespace(bytes[last - 1]) { last -= 1 }
        if first < last && bytes[first] == UInt8(ascii: "+") { first += 1 }
        guard first < last, let base = bytes.baseAddress else { return nil }
        // 19 digits cannot overflow 64 bits: no check per digit for every real value.
        guard last - first <= 19 else { return unsigned(bytes: bytes[first..<last]) }
        var value: UInt64 = 0
        for index in first..<last {
            let digit = base[index] &- 0x30
            guard digit < 10 else { return nil }
            value = value &* 10 &+ UInt64(digit)
        }
        return value
    }

    /// An `xs:integer` that fits in 64 bits.
    static func signed(_ text: String) -> Int64? {
        let value = trimmed(text)
        if value.utf8.first == UInt8(ascii: "-") {
            guard let magnitude = unsigned(String(value.dropFirst())), magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard let magnitude = unsigned(value), magnitude <= UInt64(Int64.max) else { return nil }
        return Int64(magnitude)
    }

    /// `true`/`false`/`1`/`0` (`xs:boolean`).
    static func boolean(_ text: String) -> Bool? {
        switch trimmed(text) {
        case "true", "1": true
        case "false", "0": false
        default: nil
        }
    }
}
