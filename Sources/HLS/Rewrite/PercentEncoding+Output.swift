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

    static func appendEncoded(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout OutputBuffer) {
        guard let source = bytes.baseAddress else { return }
        output.reserve(bytes.count * 3)
        let target = output.tail
        var written = 0
        for index in 0..<bytes.count {
            let byte = source[index]
            if isUnreservedByte(byte) {
                target[written] = byte
                written += 1
            } else {
                target[written] = ASCII.percent
                target[written + 1] = uppercaseHex(byte >> 4)
                target[written + 2] = uppercaseHex(byte & 0x0F)
                written += 3
            }
        }
        output.advance(by: written)
    }

    @inline(__always)
    static func uppercaseHex(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? ASCII.zero + nibble : ASCII.upperA + nibble - 10
    }
}
