/// Finds the first occurrence of one or two byte values, eight bytes per step (SWAR), for the
/// long runs inside attribute lists: quoted strings, names and plain values.
enum ByteSearch {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Flags (high bit of each byte) the bytes of `word` equal to the byte repeated in `pattern`.
    /// Only the lowest flag is exact, which is the one the callers use.
    @inline(__always)
    private static func matches(_ word: UInt64, _ pattern: UInt64) -> UInt64 {
        let difference = word ^ pattern
        return (difference &- ones) & ~difference & highBits
    }

    /// Index of the first `a` in `start..<end`, or `end`.
    @inline(__always)
    static func first(_ a: UInt8, in base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        let patternA = ones &* UInt64(a)
        var index = start
        let raw = UnsafeRawPointer(base)
        while index &+ 8 <= end {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let found = matches(word, patternA)
            if found != 0 { return index &+ found.trailingZeroBitCount >> 3 }
            index &+= 8
        }
        while index < end && base[index] != a { index &+= 1 }
        return index
    }

    /// Index of the first `a` or `b` in `start..<end`, or `end`.
    @inline(__always)
    static func first(_ a: UInt8, or b: UInt8, in base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        let patternA = ones &* UInt64(a)
        let patternB = ones &* UInt64(b)
        var index = start
        let raw = UnsafeRawPointer(base)
        while index &+ 8 <= end {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let found = matches(word, patternA) | matches(word, patternB)
            if found != 0 { return index &+ found.trailingZeroBitCount >> 3 }
            index &+= 8
        }
        while index < end && base[index] != a && base[index] != b { index &+= 1 }
        return index
    }
}
