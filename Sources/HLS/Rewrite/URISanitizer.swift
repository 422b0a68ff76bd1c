/// Makes a URI safe to write into a URI line or a quoted-string attribute: percent-encodes the
/// bytes that could end the line or the string, or that a playlist may not hold: controls
/// (CR and LF among them), space, `"`, DEL and every non-ASCII byte (the IRI-to-URI mapping of
/// RFC 3987 section 3.1), and `{`, which would start a variable reference (`{$name}`) where a
/// variable's value held one literally. Nothing else changes, so well-formed URIs (which hold
/// no `{`) pass through unchanged.
enum URISanitizer {
    static func append(_ uri: UnsafeBufferPointer<UInt8>, to output: inout OutputBuffer) {
        guard let source = uri.baseAddress else { return }
        output.reserve(uri.count * 3)
        let target = output.tail
        var written = 0
        for index in 0..<uri.count {
            let byte = source[index]
            if byte <= ASCII.space || byte == ASCII.quote || byte >= ASCII.delete || byte == ASCII.openBrace {
                target[written] = ASCII.percent
                target[written + 1] = PercentEncoding.uppercaseHex(byte >> 4)
                target[written + 2] = PercentEncoding.uppercaseHex(byte & 0x0F)
                written += 3
            } else {
                target[written] = byte
                written += 1
            }
        }
        output.advance(by: written)
    }
}
