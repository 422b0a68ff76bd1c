/// Makes a URI safe to write into a URI line or a quoted-string attribute: percent-encodes the
/// bytes that could end the line or the string, or that a playlist may not hold: controls
/// (CR and LF among them), space, `"`, DEL and every non-ASCII byte (the IRI-to-URI mapping of
/// RFC 3987 section 3.1). Nothing else changes, so well-formed URIs pass through unchanged.
enum URISanitizer {
    static func append(_ uri: [UInt8], to output: inout [UInt8]) {
        for byte in uri {
            if byte <= ASCII.space || byte == ASCII.quote || byte >= ASCII.delete {
                output.append(ASCII.percent)
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            } else {
                output.append(byte)
            }
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
}
