/// UTF-8 checks for the tokenizer: the document must be UTF-8 and hold only characters XML
/// allows (XML 1.0 section 2.2, `Char`).
enum UTF8Scalar {
    /// The length of the well-formed UTF-8 sequence at `bytes[index]` (whose first byte is
    /// non-ASCII), or 0 when it is malformed, truncated, or encodes U+FFFE or U+FFFF.
    @inline(__always)
    static func sequenceLength(_ bytes: UnsafePointer<UInt8>, _ index: Int, _ end: Int) -> Int {
        let lead = bytes[index]
        func continuation(_ offset: Int, _ low: UInt8 = 0x80, _ high: UInt8 = 0xBF) -> Bool {
            index + offset < end && bytes[index + offset] >= low && bytes[index + offset] <= high
        }
        switch lead {
        case 0xC2...0xDF:
            return continuation(1) ? 2 : 0
        case 0xE0...0xEF:
            let second: (UInt8, UInt8) = lead == 0xE0 ? (0xA0, 0xBF) : lead == 0xED ? (0x80, 0x9F) : (0x80, 0xBF)
            guard continuation(1, second.0, second.1), continuation(2) else { return 0 }
            // U+FFFE and U+FFFF are not XML characters.
            if lead == 0xEF && bytes[index + 1] == 0xBF && bytes[index + 2] >= 0xBE { return 0 }
            return 3
        case 0xF0...0xF4:
            let second: (UInt8, UInt8) = lead == 0xF0 ? (0x90, 0xBF) : lead == 0xF4 ? (0x80, 0x8F) : (0x80, 0xBF)
            return continuation(1, second.0, second.1) && continuation(2) && continuation(3) ? 4 : 0
        default:
            return 0
        }
    }

    /// True when `value` may appear in an XML document (the `Char` production).
    static func isXMLCharacter(_ value: UInt32) -> Bool {
        switch value {
        case 0x09, 0x0A, 0x0D: true
        case 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }
}
