/// A URL as a person pastes it: with spaces and non-ASCII letters in its path or query, which
/// browsers and curl send percent-encoded. Encoding them here gives the URL the origin expects
/// instead of refusing it; control characters (a tab, a line break, DEL) are refused, since no
/// one means them and they hint at a URL cut or joined by mistake.
enum PastedURL {
    /// Why a pasted URL cannot be encoded.
    struct Refusal: Error {
        var message: String
    }

    /// `text` with every space and every byte of a non-ASCII character percent-encoded
    /// (`%20`, `%C3%A9`); everything else, `%` included, as written, so a URL already encoded
    /// stays as it was.
    ///
    /// - Throws: ``Refusal`` naming the first control character and its position (1-based).
    static func encoded(_ text: String) throws(Refusal) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        for (index, scalar) in text.unicodeScalars.enumerated() {
            if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value) {
                throw Refusal(message: "it holds a control character (U+\(hex(scalar.value, width: 4))) at character \(index + 1)")
            }
            if scalar == " " || !scalar.isASCII {
                for byte in String(scalar).utf8 { output += Array("%\(hex(UInt32(byte), width: 2))".utf8) }
            } else {
                output.append(UInt8(scalar.value))
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
