/// Byte classes of RFC 9110 and 9112, shared by the request head and chunked body parsers.
enum HTTP1Bytes {
    static let cr = UInt8(ascii: "\r")
    static let lf = UInt8(ascii: "\n")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")

    /// RFC 9110 `tchar`, as two 64-bit sets (bytes below 64, and 64 to 127).
    static func isToken(_ byte: UInt8) -> Bool {
        let set: UInt64 = byte < 64 ? 0x03FF_6CFA_0000_0000 : byte < 128 ? 0x57FF_FFFF_C7FF_FFFE : 0
        return set >> UInt64(byte & 63) & 1 != 0
    }

    /// A byte of a field value: visible ASCII, space, tab or obs-text; no control byte, no DEL.
    static func isFieldValue(_ byte: UInt8) -> Bool {
        (byte >= 0x20 && byte != 0x7F) || byte == tab
    }

    static func isBlank(_ byte: UInt8) -> Bool { byte == space || byte == tab }

    /// The value of a hexadecimal digit, or nil.
    static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }
}
