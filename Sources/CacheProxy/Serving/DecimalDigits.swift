/// The decimal digits of an unsigned integer, written straight into bytes: a hit's response
/// head carries up to four numbers, and `String(number)` would cost an allocation each.
enum DecimalDigits {
    /// The most digits a `UInt64` has.
    static let maximumCount = 20

    /// Writes `number` into `buffer` from `start`, which must leave room for
    /// ``maximumCount`` bytes; returns the index after the last digit.
    static func write(_ number: UInt64, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        var end = start
        var rest = number
        repeat {
            buffer[end] = UInt8(ascii: "0") + UInt8(rest % 10)
            end += 1
            rest /= 10
        } while rest > 0
        buffer[start..<end].reverse()
        return end
    }
}
