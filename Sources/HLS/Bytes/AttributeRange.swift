/// A run of entries in the parser's shared attribute pool: the attributes of one tag.
struct AttributeRange: Hashable, Sendable {
    var start: Int32
    var count: Int32

    static let empty = AttributeRange(start: 0, count: 0)

    var indices: Range<Int> { Int(start)..<(Int(start) + Int(count)) }
}
