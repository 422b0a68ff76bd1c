/// Sixty-four bytes of an attribute list as bit masks, one bit per byte (the first byte in the
/// lowest bit): where its quotes are, its separators (`,` and `=`), and its white space.
///
/// Four 16-byte vector comparisons per mask find them without a branch per byte, however the
/// list's attributes are ordered; ``insideQuotes(carry:)`` then tells which separators are
/// inside quoted strings, so a list splits with no search per attribute.
struct AttributeListChunk {
    var quotes: UInt64
    var separators: UInt64
    /// Spaces, tabs and the other bytes below 0x20 (one unsigned comparison finds them all):
    /// outside quoted strings, the one-pass split leaves the list to the scanner, which decides
    /// what white space around names and values means.
    var spaces: UInt64

    /// The bytes of `start..<end` from `start`, 64 at most. `readableEnd` (at or after `end`) is
    /// where readable memory ends: bytes up to it may be loaded, and are masked off past `end`.
    @inline(__always)
    init(_ base: UnsafePointer<UInt8>, at start: Int, end: Int, readableEnd: Int) {
        if start &+ 64 <= readableEnd {
            let raw = UnsafeRawPointer(base + start)
            var quotes: UInt64 = 0
            var separators: UInt64 = 0
            var spaces: UInt64 = 0
            for block in 0..<4 {
                let bytes = raw.loadUnaligned(fromByteOffset: block &* 16, as: SIMD16<UInt8>.self)
                // The splats are spelled with their type: inferred, they defeat vectorization.
                let quote = bytes .== SIMD16<UInt8>(repeating: ASCII.quote)
                let separator = (bytes .== SIMD16<UInt8>(repeating: ASCII.comma))
                    .| (bytes .== SIMD16<UInt8>(repeating: ASCII.equals))
                let space = bytes .<= SIMD16<UInt8>(repeating: ASCII.space)
                quotes |= VectorMask.bits(quote) &<< UInt64(block &* 16)
                separators |= VectorMask.bits(separator) &<< UInt64(block &* 16)
                spaces |= VectorMask.bits(space) &<< UInt64(block &* 16)
            }
            self.quotes = quotes
            self.separators = separators
            self.spaces = spaces
        } else {
            self = Self.nearEnd(base, at: start, end: end)
        }
        let length = end &- start
        if length < 64 {
            let kept: UInt64 = (1 &<< UInt64(max(length, 0))) &- 1
            quotes &= kept
            separators &= kept
            spaces &= kept
        }
    }

    /// The last bytes of the input, a byte at a time.
    @inline(never)
    private static func nearEnd(_ base: UnsafePointer<UInt8>, at start: Int, end: Int) -> Self {
        var chunk = Self(quotes: 0, separators: 0, spaces: 0)
        var index = start
        while index < end && index &- start < 64 {
            let bit: UInt64 = 1 &<< UInt64(index &- start)
            let byte = base[index]
            if byte == ASCII.quote { chunk.quotes |= bit }
            if byte == ASCII.comma || byte == ASCII.equals { chunk.separators |= bit }
            if byte <= ASCII.space { chunk.spaces |= bit }
            index &+= 1
        }
        return chunk
    }

    private init(quotes: UInt64, separators: UInt64, spaces: UInt64) {
        self.quotes = quotes
        self.separators = separators
        self.spaces = spaces
    }

    /// The bytes from each opening quote up to (not including) its closing quote. `carry` is all
    /// ones when the previous chunk ended inside a quoted string, and is updated for the next.
    @inline(__always)
    func insideQuotes(carry: inout UInt64) -> UInt64 {
        // Prefix XOR: each bit becomes the parity of the quotes at or before it.
        var inside = quotes
        inside ^= inside &<< 1
        inside ^= inside &<< 2
        inside ^= inside &<< 4
        inside ^= inside &<< 8
        inside ^= inside &<< 16
        inside ^= inside &<< 32
        inside ^= carry
        carry = UInt64(bitPattern: Int64(bitPattern: inside) &>> 63)
        return inside
    }
}
