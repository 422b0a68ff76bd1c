/// Percent-encoding straight into an ``OutputBuffer``, the rewriter's hot path.
extension PercentEncoding {
    /// Bit n of word n / 64 is set for the unreserved bytes `A-Z a-z 0-9 - . _ ~`.
    private static let unreservedLow: UInt64 = 0x03FF_6000_0000_0000
    private static let unreservedHigh: UInt64 = 0x47FF_FFFE_87FF_FFFE

    @inline(__always)
    static func isUnreservedByte(_ byte: UInt8) -> Bool {
        let word = byte < 64 ? unreservedLow : (byte < 128 ? unreservedHigh : 0)
        return (word >> UInt64(byte & 63)) & 1 != 0
    }

    /// For each byte, what it encodes to, packed little-endian in a word: up to three output
    /// bytes and, in the fourth, how many of them count. The encoder stores a whole word per
    /// input byte and advances by the count, with no branch on the byte's class.
    private static let encodings: [UInt32] = (0...255).map { value -> UInt32 in
        let byte = UInt8(value)
        if isUnreservedByte(byte) { return UInt32(byte) | 1 << 24 }
        return UInt32(ASCII.percent) | UInt32(uppercaseHex(byte >> 4)) << 8 | UInt32(uppercaseHex(byte & 0x0F)) << 16
            | 3 << 24
    }

    static func appendEncoded(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout OutputBuffer) {
        guard let source = bytes.baseAddress else { return }
        // One spare byte: every store writes four, and only the last may reach past the text.
        output.reserve(bytes.count * 3 + 1)
        let target = UnsafeMutableRawPointer(output.tail)
        var written = 0
        encodings.withUnsafeBufferPointer { encodings in
            for index in 0..<bytes.count {
                let encoding = encodings[Int(source[index])]
                target.storeBytes(of: UInt32(littleEndian: encoding), toByteOffset: written, as: UInt32.self)
                written += Int(encoding >> 24)
            }
        }
        output.advance(by: written)
    }

    @inline(__always)
    static func uppercaseHex(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? ASCII.zero + nibble : ASCII.upperA + nibble - 10
    }
}
