/// Appends the text of a response head into memory reserved for it beforehand: a hit's head is
/// a dozen pieces, and a `ByteBuffer` write per piece (each checking capacity and uniqueness)
/// cost more than the bytes themselves.
struct HeadWriter {
    private let bytes: UnsafeMutableBufferPointer<UInt8>
    /// The bytes written so far.
    private(set) var count = 0

    /// Writes into `bytes`, which the caller sized for everything it appends.
    init(into bytes: UnsafeMutableBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func append(_ text: UnsafeBufferPointer<UInt8>) {
        precondition(text.count <= bytes.count - count, "a head larger than its reservation")
        count = bytes[count...].initialize(fromContentsOf: text)
    }

    mutating func append(_ text: [UInt8]) {
        text.withUnsafeBufferPointer { append($0) }
    }

    /// A string's UTF-8 bytes (a literal goes to the `StaticString` form: no copy to make contiguous).
    mutating func append(utf8 text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// The decimal digits of `number` (`DecimalDigits` checks that the reservation has room).
    mutating func append(decimal number: UInt64) {
        count = DecimalDigits.write(number, into: bytes, at: count)
    }
}
