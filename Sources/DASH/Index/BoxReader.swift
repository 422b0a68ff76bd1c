/// Big-endian reads over ISO BMFF bytes that throw instead of reading past `limit`.
struct BoxReader {
    let bytes: ArraySlice<UInt8>
    /// Offset from the start of `bytes` of the next read.
    var offset = 0
    /// Reads stop here (the end of the box being read).
    var limit: Int

    init(bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        limit = bytes.count
    }

    var remaining: Int { limit - offset }

    private mutating func read(_ count: Int) throws(DASHIndexError) -> UInt64 {
        guard remaining >= count else {
            throw DASHIndexError(code: .truncated, message: "a field runs past the end of its box", offset: offset)
        }
        var value: UInt64 = 0
        let start = bytes.startIndex + offset
        for byte in bytes[start..<(start + count)] { value = value << 8 | UInt64(byte) }
        offset += count
        return value
    }

    mutating func uint16() throws(DASHIndexError) -> UInt16 { UInt16(try read(2)) }
    mutating func uint32() throws(DASHIndexError) -> UInt32 { UInt32(try read(4)) }
    mutating func uint64() throws(DASHIndexError) -> UInt64 { try read(8) }

    /// A box header: its size in bytes (a 64-bit `largesize` when the size field is 1, the rest
    /// of the bytes when it is 0), its four-character type and the header's length.
    mutating func boxHeader() throws(DASHIndexError) -> (size: UInt64, type: String, headerLength: Int) {
        let start = offset
        var size = UInt64(try uint32())
        guard remaining >= 4 else {
            throw DASHIndexError(code: .truncated, message: "a box header runs past the end of the bytes", offset: start)
        }
        let typeBytes = bytes[(bytes.startIndex + offset)..<(bytes.startIndex + offset + 4)]
        let type = String(decoding: typeBytes.map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
        offset += 4
        if size == 1 {
            size = try uint64()
        } else if size == 0 {
            size = UInt64(limit - start)
        }
        let headerLength = offset - start
        guard size >= UInt64(headerLength) else {
            throw DASHIndexError(code: .malformed, message: "a box size of \(size) is below its header's \(headerLength) bytes", offset: start)
        }
        return (size, type, headerLength)
    }

    mutating func skip(to end: Int) throws(DASHIndexError) {
        guard end <= limit, end >= offset else {
            throw DASHIndexError(code: .truncated, message: "a box runs past the end of the bytes", offset: offset)
        }
        offset = end
    }
}
