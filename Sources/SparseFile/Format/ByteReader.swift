/// Reads what ``ByteWriter`` wrote from untrusted bytes: every read is bounds-checked and
/// returns nil on short or malformed input instead of trapping.
package struct ByteReader {
    private let bytes: [UInt8]
    package private(set) var position: Int

    package init(_ bytes: [UInt8], position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    package var remaining: Int { bytes.count - position }
    package var isAtEnd: Bool { position >= bytes.count }

    package mutating func readByte() -> UInt8? {
        guard position < bytes.count else { return nil }
        defer { position += 1 }
        return bytes[position]
    }

    package mutating func readLittleEndianUInt16() -> UInt16? {
        guard remaining >= 2 else { return nil }
        defer { position += 2 }
        return UInt16(bytes[position]) | UInt16(bytes[position + 1]) << 8
    }

    package mutating func readLittleEndianUInt64() -> UInt64? {
        guard remaining >= 8 else { return nil }
        var value: UInt64 = 0
        for index in 0..<8 {
            value |= UInt64(bytes[position + index]) << UInt64(8 * index)
        }
        position += 8
        return value
    }

    /// A LEB128 varint of at most 10 bytes whose value fits in 64 bits.
    package mutating func readVarint() -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while let byte = readByte() {
            let payload = UInt64(byte & 0x7F)
            if shift == 63 && payload > 1 { return nil }
            value |= payload << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
            if shift > 63 { return nil }
        }
        return nil
    }

    /// A varint length followed by that many bytes; nil when the length exceeds `limit` or the input.
    package mutating func readLengthPrefixed(limit: Int) -> ArraySlice<UInt8>? {
        guard let length = readVarint(), let count = Int(exactly: length),
              count <= limit, count <= remaining else { return nil }
        defer { position += count }
        return bytes[position..<position + count]
    }
}
