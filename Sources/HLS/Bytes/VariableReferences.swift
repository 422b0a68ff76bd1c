/// Splits text into literal runs and `{$name}` variable references.
enum VariableReferences {
    enum Piece {
        case literal(ByteSpan)
        /// `name` is the variable name; `whole` spans `{$name}`.
        case reference(name: ByteSpan, whole: ByteSpan)
    }

    /// Calls `body` for each piece of `span`, in order. A `{$` that is not closed by `}` after a
    /// valid name is literal text.
    static func forEach(in base: UnsafePointer<UInt8>, _ span: ByteSpan, _ body: (Piece) -> Void) {
        var literalStart = span.lowerBound
        var index = span.lowerBound
        let end = span.upperBound
        while index + 1 < end {
            guard base[index] == ASCII.openBrace && base[index + 1] == ASCII.dollar else {
                index += 1
                continue
            }
            var nameEnd = index + 2
            while nameEnd < end && ASCII.isVariableNameByte(base[nameEnd]) { nameEnd += 1 }
            guard nameEnd < end, base[nameEnd] == ASCII.closeBrace, nameEnd > index + 2 else {
                index += 1
                continue
            }
            if index > literalStart { body(.literal(ByteSpan(literalStart, index))) }
            body(.reference(name: ByteSpan(index + 2, nameEnd), whole: ByteSpan(index, nameEnd + 1)))
            index = nameEnd + 1
            literalStart = index
        }
        if end > literalStart { body(.literal(ByteSpan(literalStart, end))) }
    }

    /// True when `span` contains `{$`, the only case where substitution can change it.
    @inline(__always)
    static func mayContainReference(_ base: UnsafePointer<UInt8>, _ span: ByteSpan) -> Bool {
        var index = span.lowerBound
        while index + 1 < span.upperBound {
            if base[index] == ASCII.openBrace && base[index + 1] == ASCII.dollar { return true }
            index += 1
        }
        return false
    }
}
