/// A cursor over bytes for the small grammars of HTTP header values: digits, tokens, optional
/// white space. Never traps: every read checks the bounds and numbers check for overflow.
struct ASCIIScanner {
    private let bytes: [UInt8]
    private(set) var position: Int

    init(_ bytes: [UInt8], position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    var isAtEnd: Bool { position >= bytes.count }
    var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    /// Skips spaces and horizontal tabs (RFC 9110 OWS).
    mutating func skipWhitespace() {
        while let byte = peek, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { position += 1 }
    }

    /// Consumes `byte` when it is next.
    mutating func consume(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        position += 1
        return true
    }

    /// Consumes `word` when it is next, ignoring ASCII case. A static string: it runs for every
    /// request, and its bytes are read in place.
    mutating func consumeCaseInsensitive(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard bytes.count - position >= count else { return false }
        let wanted = UnsafeBufferPointer(start: word.utf8Start, count: count)
        for (index, byte) in wanted.enumerated() where Self.lowercased(bytes[position + index]) != Self.lowercased(byte) {
            return false
        }
        position += count
        return true
    }

    /// Reads a run of decimal digits as a number; nil when there is no digit.
    mutating func readNumber() throws(ParseError) -> UInt64? {
        var value: UInt64 = 0
        let start = position
        while let byte = peek, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
            let (times, overflowA) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = times.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            guard !overflowA, !overflowB else { throw ParseError(.overflow, "number too large") }
            value = sum
            position += 1
        }
        return position > start ? value : nil
    }

    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return isDigit(byte) || (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z"))
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return isDigit(byte) || (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "f"))
    }
}
