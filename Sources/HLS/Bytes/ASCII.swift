/// Byte constants the parser compares against; named so the scanning code reads as the grammar.
enum ASCII {
    static let tab: UInt8 = 0x09
    static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let quote: UInt8 = 0x22
    static let hash: UInt8 = 0x23
    static let dollar: UInt8 = 0x24
    static let percent: UInt8 = 0x25
    static let plus: UInt8 = 0x2B
    static let comma: UInt8 = 0x2C
    static let minus: UInt8 = 0x2D
    static let dot: UInt8 = 0x2E
    static let slash: UInt8 = 0x2F
    static let zero: UInt8 = 0x30
    static let nine: UInt8 = 0x39
    static let colon: UInt8 = 0x3A
    static let equals: UInt8 = 0x3D
    static let questionMark: UInt8 = 0x3F
    static let at: UInt8 = 0x40
    static let upperA: UInt8 = 0x41
    static let upperF: UInt8 = 0x46
    static let upperX: UInt8 = 0x58
    static let upperZ: UInt8 = 0x5A
    static let underscore: UInt8 = 0x5F
    static let lowerA: UInt8 = 0x61
    static let lowerF: UInt8 = 0x66
    static let lowerX: UInt8 = 0x78
    static let lowerZ: UInt8 = 0x7A
    static let openBrace: UInt8 = 0x7B
    static let closeBrace: UInt8 = 0x7D
    static let tilde: UInt8 = 0x7E
    static let delete: UInt8 = 0x7F

    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte &- zero < 10 }
    @inline(__always) static func isWhitespace(_ byte: UInt8) -> Bool { byte == space || byte == tab }
    @inline(__always) static func isUpper(_ byte: UInt8) -> Bool { byte &- upperA < 26 }
    @inline(__always) static func isLower(_ byte: UInt8) -> Bool { byte &- lowerA < 26 }
    @inline(__always) static func isAlpha(_ byte: UInt8) -> Bool { isUpper(byte) || isLower(byte) }

    @inline(__always) static func hexValue(_ byte: UInt8) -> UInt8? {
        if isDigit(byte) { return byte &- zero }
        if byte &- upperA < 6 { return byte &- upperA &+ 10 }
        if byte &- lowerA < 6 { return byte &- lowerA &+ 10 }
        return nil
    }

    /// Attribute names are `[A-Z0-9-]` (RFC 8216 section 4.2).
    @inline(__always) static func isAttributeNameByte(_ byte: UInt8) -> Bool {
        isUpper(byte) || isDigit(byte) || byte == minus
    }

    /// Variable names of EXT-X-DEFINE are `[a-zA-Z0-9_-]`.
    @inline(__always) static func isVariableNameByte(_ byte: UInt8) -> Bool {
        isAlpha(byte) || isDigit(byte) || byte == minus || byte == underscore
    }
}
