/// A half-open range of byte offsets into a playlist's source bytes.
///
/// Offsets are 32-bit because the parser refuses inputs larger than `Int32.max` bytes, which
/// halves the size of every record that points into the source.
struct ByteSpan: Hashable, Sendable {
    var start: Int32
    var end: Int32

    static let empty = ByteSpan(start: 0, end: 0)

    init(start: Int32, end: Int32) {
        self.start = start
        self.end = end
    }

    init(_ start: Int, _ end: Int) {
        self.start = Int32(truncatingIfNeeded: start)
        self.end = Int32(truncatingIfNeeded: end)
    }

    var isEmpty: Bool { start >= end }
    var count: Int { Int(end) - Int(start) }
    var lowerBound: Int { Int(start) }
    var upperBound: Int { Int(end) }
}
