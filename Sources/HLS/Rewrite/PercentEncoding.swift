/// Percent-encoding (RFC 3986 section 2.1) for the `url=` query value of proxy URLs.
public enum PercentEncoding {
    /// `s` encoded so that it is one safe query value: every byte except the unreserved
    /// characters `A-Z a-z 0-9 - . _ ~` becomes `%XX`. The result is ASCII without `&`, `=`,
    /// `#`, `+`, quotes, white space or line breaks, so it cannot end the value or the line.
    public static func encodeQueryValue(_ value: String) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(value.utf8.count * 3)
        appendEncoded(value.utf8, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes `%XX` escapes; a `%` not followed by two hex digits is kept as is.
    public static func decode(_ value: String) -> String {
        String(decoding: decode(Array(value.utf8)[...]), as: UTF8.self)
    }

    static func decode(_ value: ArraySlice<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(value.count)
        var index = value.startIndex
        while index < value.endIndex {
            let byte = value[index]
            if byte == ASCII.percent, index + 2 < value.endIndex,
               let high = ASCII.hexValue(value[index + 1]), let low = ASCII.hexValue(value[index + 2]) {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(byte)
                index += 1
            }
        }
        return output
    }

    static func appendEncoded(_ bytes: some Sequence<UInt8>, to output: inout [UInt8]) {
        for byte in bytes {
            if isUnreservedByte(byte) {
                output.append(byte)
            } else {
                output.append(ASCII.percent)
                output.append(uppercaseHex(byte >> 4))
                output.append(uppercaseHex(byte & 0x0F))
            }
        }
    }
}
