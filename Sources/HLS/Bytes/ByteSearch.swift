/// Finds the first occurrence of one or two byte values sixteen bytes per step (one vector
/// comparison), for the runs inside lines: quoted strings, names, plain values and URIs.
///
/// `readableEnd`, where given, is where readable memory ends (at or after `end`): loads may
/// read past `end` up to it, so that a short run costs one load instead of a byte loop.
enum ByteSearch {
    /// Index of the first `a` in `start..<end`, or `end`.
    @inline(__always)
    static func first(_ a: UInt8, in base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        first(a, or: a, in: base, from: start, to: end, readableEnd: end)
    }

    /// Index of the first `a` or `b` in `start..<end`, or `end`.
    @inline(__always)
    static func first(_ a: UInt8, or b: UInt8, in base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        first(a, or: b, in: base, from: start, to: end, readableEnd: end)
    }

    /// Index of the first `a` in `start..<end`, or `end`, reading up to `readableEnd`.
    @inline(__always)
    static func first(_ a: UInt8, in base: UnsafePointer<UInt8>, from start: Int, to end: Int,
                      readableEnd: Int) -> Int {
        first(a, or: a, in: base, from: start, to: end, readableEnd: readableEnd)
    }

    /// Index of the first `a` or `b` in `start..<end`, or `end`, reading up to `readableEnd`.
    @inline(__always)
    static func first(_ a: UInt8, or b: UInt8, in base: UnsafePointer<UInt8>, from start: Int, to end: Int,
                      readableEnd: Int) -> Int {
        var index = start
        let raw = UnsafeRawPointer(base)
        let vectorA = SIMD16<UInt8>(repeating: a)
        let vectorB = SIMD16<UInt8>(repeating: b)
        while index < end && index &+ 16 <= readableEnd {
            let vector = raw.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
            let found = (vector .== vectorA) .| (vector .== vectorB)
            if any(found) {
                return min(index &+ VectorMask.firstSet(found), end)
            }
            index &+= 16
        }
        while index < end && index &+ 8 <= readableEnd {
            let word = SWAR.load(base, index)
            let found = SWAR.matches(word, a) | SWAR.matches(word, b)
            if found != 0 { return min(index &+ SWAR.firstFlagged(found), end) }
            index &+= 8
        }
        while index < end && base[index] != a && base[index] != b { index &+= 1 }
        return min(index, end)
    }
}
