#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The decimal digits of an unsigned integer, written straight into bytes: a hit's response
/// head carries up to four numbers, and `String(number)` would cost an allocation each.
enum DecimalDigits {
    /// The most digits a `UInt64` has.
    static let maximumCount = 20

    /// "00" to "99", so that one division by 100 gives two digits.
    private static let pairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// Writes `number` into `buffer` from `start`, which must leave room for
    /// ``maximumCount`` bytes; returns the index after the last digit. The rest of the room
    /// may be written to as well.
    static func write(_ number: UInt64, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        precondition(start >= 0 && buffer.count - start >= maximumCount, "no room for the digits (a head larger than its reservation)")
        guard let base = buffer.baseAddress else { return start }
        // Last digit first, at the end of the room, then moved to `start`.
        let roomEnd = base + start + maximumCount
        var first = roomEnd
        var rest = number
        let pairs = Self.pairs.utf8Start
        while rest >= 100 {
            let pair = Int(truncatingIfNeeded: rest % 100) &* 2
            rest /= 100
            first -= 2
            first[0] = pairs[pair]
            first[1] = pairs[pair &+ 1]
        }
        if rest >= 10 {
            let pair = Int(truncatingIfNeeded: rest) &* 2
            first -= 2
            first[0] = pairs[pair]
            first[1] = pairs[pair &+ 1]
        } else {
            first -= 1
            first[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest)
        }
        let count = first.distance(to: roomEnd)
        if count < maximumCount { memmove(base + start, first, count) }
        return start + count
    }
}
