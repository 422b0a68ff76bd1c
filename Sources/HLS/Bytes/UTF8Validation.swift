/// Validates one UTF-8 sequence, the way RFC 8216 section 4.1 asks of every playlist: playlists
/// are UTF-8 and contain no C1 control characters (U+0080 to U+009F) either.
enum UTF8Validation {
    enum Result {
        /// A well-formed scalar of `length` bytes.
        case scalar(length: Int)
        /// A well-formed C1 control character of two bytes.
        case c1Control
        /// Not UTF-8; skip one byte and go on.
        case invalid
    }

    static func validate(_ base: UnsafePointer<UInt8>, at index: Int, end: Int) -> Result {
        let lead = base[index]
        let length: Int
        var lowerBound: UInt8 = 0x80
        var upperBound: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lowerBound = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upperBound = 0x9F
        case 0xF0: length = 4; lowerBound = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upperBound = 0x8F
        default: return .invalid
        }
        guard end - index >= length else { return .invalid }
        let second = base[index + 1]
        guard second >= lowerBound && second <= upperBound else { return .invalid }
        var offset = 2
        while offset < length {
            let continuation = base[index + offset]
            guard continuation & 0xC0 == 0x80 else { return .invalid }
            offset += 1
        }
        if lead == 0xC2 && second <= 0x9F { return .c1Control }
        return .scalar(length: length)
    }
}
