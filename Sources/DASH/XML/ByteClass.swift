/// Classes of bytes for the tokenizer's loops: one table lookup decides whether a byte needs
/// a closer look, so that the common ASCII runs cost a load and a test per byte.
enum ByteClass {
    /// May start a name (ASCII letters, `_`, `:`; any non-ASCII byte, checked as UTF-8 later).
    static let nameStart: UInt8 = 1
    /// May continue a name: a name start, a digit, `-` or `.`.
    static let nameCharacter: UInt8 = 2
    /// XML white space: space, tab, LF, CR.
    static let whitespace: UInt8 = 4
    /// Ends the fast scan of character data: `<`, `&`, `]`, CR, control characters, non-ASCII.
    static let textSpecial: UInt8 = 8
    /// Ends the fast scan of an attribute value: quotes, `<`, `&`, tab, LF, CR, control
    /// characters, non-ASCII.
    static let valueSpecial: UInt8 = 16

    static let table: [UInt8] = (0..<256).map { value -> UInt8 in
        let byte = UInt8(value)
        var bits: UInt8 = 0
        let isLetter = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
        if isLetter || byte == 0x5F || byte == 0x3A || byte >= 0x80 { bits |= nameStart | nameCharacter }
        if (byte >= 0x30 && byte <= 0x39) || byte == 0x2D || byte == 0x2E { bits |= nameCharacter }
        if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { bits |= whitespace }
        if byte == 0x3C || byte == 0x26 || byte == 0x5D || byte == 0x0D || (byte < 0x20 && byte != 0x09 && byte != 0x0A)
            || byte >= 0x80 { bits |= textSpecial }
        if byte == 0x22 || byte == 0x27 || byte == 0x3C || byte == 0x26 || byte < 0x20 || byte >= 0x80 {
            bits |= valueSpecial
        }
        return bits
    }

    /// ``table`` in memory that is never freed, for the tokenizer's loops: an unsafe pointer
    /// needs no bounds check per byte. Immutable after initialization.
    nonisolated(unsafe) static let pointer: UnsafePointer<UInt8> = {
        let memory = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        memory.initialize(from: table, count: 256)
        return UnsafePointer(memory)
    }()

    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }
}
