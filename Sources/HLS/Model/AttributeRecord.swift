/// One `NAME=VALUE` pair of an attribute list, as offsets into the source.
struct AttributeRecord: Sendable {
    var name: ByteSpan
    /// The value as written, quotes included.
    var value: ByteSpan
    /// The name, when the parser knows it (one byte: the enum's spare values encode nil).
    var knownName: AttributeName?
    var isQuoted: Bool
    /// A quoted value whose closing quote is missing runs to the end of the line.
    var isUnterminated: Bool

    /// The value without its quotes.
    var content: ByteSpan {
        guard isQuoted else { return value }
        return ByteSpan(start: value.start + 1, end: isUnterminated ? value.end : value.end - 1)
    }
}
