extension URISanitizer {
    /// `bytes` made safe for a URI line or a quoted string, as a new array.
    static func sanitized(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        let bytes = Array(bytes)
        var output = OutputBuffer(capacity: bytes.count * 3 + 1)
        bytes.withUnsafeBufferPointer { append($0, to: &output) }
        return output.finish()
    }
}
