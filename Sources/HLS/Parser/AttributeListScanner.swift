/// Splits an attribute list (RFC 8216 section 4.2) into `NAME=VALUE` entries, recovering from
/// stray white space, empty entries, missing `=` and unterminated quotes the way players do.
/// The parser and the canonical writer share it, so both see the same entries.
enum AttributeListScanner {
    struct Entry {
        var name: ByteSpan
        /// The value as written, quotes included.
        var value: ByteSpan
        var isQuoted: Bool
        var isUnterminated: Bool

        var content: ByteSpan {
            guard isQuoted else { return value }
            return ByteSpan(start: value.start + 1, end: isUnterminated ? value.end : value.end - 1)
        }
    }

    /// Calls `body` for each entry until it returns false. Returns the first problem found, if any.
    @discardableResult
    static func scan(_ base: UnsafePointer<UInt8>, _ span: ByteSpan, _ body: (Entry) -> Bool) -> String? {
        var index = span.lowerBound
        let end = span.upperBound
        var problem: String?
        while index < end {
            let entryStart = index
            while index < end && ASCII.isWhitespace(base[index]) { index += 1 }
            if index != entryStart { problem = problem ?? "white space in the attribute list" }
            let nameStart = index
            while index < end && base[index] != ASCII.equals && base[index] != ASCII.comma { index += 1 }
            var nameEnd = index
            while nameEnd > nameStart && ASCII.isWhitespace(base[nameEnd - 1]) { nameEnd -= 1 }
            if nameEnd != index { problem = problem ?? "white space in the attribute list" }
            guard index < end, base[index] == ASCII.equals, nameEnd > nameStart else {
                problem = problem ?? (nameEnd > nameStart ? "attribute without a value" : "empty attribute")
                if index < end { index += 1 }
                continue
            }
            index += 1
            let afterEquals = index
            while index < end && ASCII.isWhitespace(base[index]) { index += 1 }
            if index != afterEquals { problem = problem ?? "white space in the attribute list" }
            let valueStart = index
            var valueEnd: Int
            var isQuoted = false
            var isUnterminated = false
            if index < end && base[index] == ASCII.quote {
                isQuoted = true
                index += 1
                while index < end && base[index] != ASCII.quote { index += 1 }
                if index < end {
                    index += 1
                } else {
                    isUnterminated = true
                    problem = problem ?? "unterminated quoted string"
                }
                valueEnd = index
                let afterQuote = index
                var onlySpace = true
                while index < end && base[index] != ASCII.comma {
                    if !ASCII.isWhitespace(base[index]) { onlySpace = false }
                    index += 1
                }
                if index != afterQuote {
                    problem = problem ?? (onlySpace ? "white space in the attribute list" : "text after a quoted string")
                }
            } else {
                while index < end && base[index] != ASCII.comma { index += 1 }
                valueEnd = index
                while valueEnd > valueStart && ASCII.isWhitespace(base[valueEnd - 1]) { valueEnd -= 1 }
                if valueEnd != index { problem = problem ?? "white space in the attribute list" }
                if valueEnd == valueStart { problem = problem ?? "attribute with an empty value" }
            }
            if index < end {
                index += 1
                if index == end { problem = problem ?? "trailing comma in the attribute list" }
            }
            let entry = Entry(name: ByteSpan(nameStart, nameEnd), value: ByteSpan(valueStart, valueEnd),
                              isQuoted: isQuoted, isUnterminated: isUnterminated)
            if !body(entry) { break }
        }
        return problem
    }
}
