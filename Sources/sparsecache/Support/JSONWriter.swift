/// A minimal streaming JSON writer: objects, arrays, strings (escaped per RFC 8259), numbers
/// given as text, booleans and null. Keys are written in the order given.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    private var needsComma = false

    mutating func beginObject() { separate(); bytes.append(0x7B); needsComma = false }
    mutating func endObject() { bytes.append(0x7D); needsComma = true }
    mutating func beginArray() { separate(); bytes.append(0x5B); needsComma = false }
    mutating func endArray() { bytes.append(0x5D); needsComma = true }
    mutating func newline() { bytes.append(0x0A) }

    mutating func key(_ key: String) {
        separate()
        appendString(key)
        bytes.append(0x3A)
        needsComma = false
    }

    mutating func string(_ value: String?) {
        separate()
        if let value { appendString(value) } else { bytes.append(contentsOf: "null".utf8) }
        needsComma = true
    }

    /// A number already spelled in JSON's grammar (an integer, or ``HLS/HLSDecimal/jsonText``).
    mutating func number(_ text: String?) {
        separate()
        bytes.append(contentsOf: (text ?? "null").utf8)
        needsComma = true
    }

    mutating func number(_ value: UInt64?) { number(value.map { String($0) }) }

    mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        needsComma = true
    }

    private mutating func separate() {
        if needsComma { bytes.append(0x2C) }
    }

    private mutating func appendString(_ value: String) {
        bytes.append(0x22)
        for byte in value.utf8 {
            switch byte {
            case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
            case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
            case 0x0D: bytes.append(contentsOf: [0x5C, 0x72])
            case 0x09: bytes.append(contentsOf: [0x5C, 0x74])
            case 0..<0x20, 0x7F:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(0x22)
    }
}
