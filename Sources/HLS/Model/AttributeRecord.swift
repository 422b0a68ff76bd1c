/// One `NAME=VALUE` pair of an attribute list, as offsets into the source.
struct AttributeRecord: Sendable {
    var name: ByteSpan
    /// The value as written, quotes included.
    var value: ByteSpan
    /// `AttributeName.rawValue`, or `unknownName`.
    var nameID: UInt8
    var isQuoted: Bool
    /// A quoted value whose closing quote is missing runs to the end of the line.
    var isUnterminated: Bool

    static let unknownName: UInt8 = .max

    var knownName: AttributeName? { AttributeName(rawValue: nameID) }

    /// The value without its quotes.
    var content: ByteSpan {
        guard isQuoted else { return value }
        return ByteSpan(start: value.start + 1, end: isUnterminated ? value.end : value.end - 1)
    }
}
