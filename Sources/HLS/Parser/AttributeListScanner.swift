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

    /// Splits `span` into entries, in order.
    struct Iterator {
        let base: UnsafePointer<UInt8>
        var index: Int
        let end: Int
        /// The first problem found so far, if any.
        private(set) var problem: String?

        init(_ base: UnsafePointer<UInt8>, _ span: ByteSpan) {
            self.base = base
            index = span.lowerBound
            end = span.upperBound
        }

        private mutating func note(_ text: String) {
            if problem == nil { problem = text }
        }

        mutating func next() -> Entry? {
            while index < end {
                if ASCII.isWhitespace(base[index]) {
                    note("white space in the attribute list")
                    while index < end && ASCII.isWhitespace(base[index]) { index += 1 }
                }
                let nameStart = index
                index = ByteSearch.first(ASCII.equals, or: ASCII.comma, in: base, from: index, to: end)
                var nameEnd = index
                if nameEnd > nameStart && ASCII.isWhitespace(base[nameEnd - 1]) {
                    note("white space in the attribute list")
                    while nameEnd > nameStart && ASCII.isWhitespace(base[nameEnd - 1]) { nameEnd -= 1 }
                }
                guard index < end, base[index] == ASCII.equals, nameEnd > nameStart else {
                    note(nameEnd > nameStart ? "attribute without a value" : "empty attribute")
                    if index < end { index += 1 }
                    continue
                }
                index += 1
                if index < end && ASCII.isWhitespace(base[index]) {
                    note("white space in the attribute list")
                    while index < end && ASCII.isWhitespace(base[index]) { index += 1 }
                }
                let entry = index < end && base[index] == ASCII.quote
                    ? quotedValue(name: ByteSpan(nameStart, nameEnd))
                    : plainValue(name: ByteSpan(nameStart, nameEnd))
                if index < end {
                    index += 1
                    if index == end { note("trailing comma in the attribute list") }
                }
                return entry
            }
            return nil
        }

        /// A quoted string up to its closing quote (or the end of the line), then up to the comma.
        private mutating func quotedValue(name: ByteSpan) -> Entry {
            let valueStart = index
            index = ByteSearch.first(ASCII.quote, in: base, from: index + 1, to: end)
            var isUnterminated = false
            if index < end {
                index += 1
            } else {
                isUnterminated = true
                note("unterminated quoted string")
            }
            let valueEnd = index
            if index < end && base[index] != ASCII.comma {
                var onlySpace = true
                while index < end && base[index] != ASCII.comma {
                    if !ASCII.isWhitespace(base[index]) { onlySpace = false }
                    index += 1
                }
                note(onlySpace ? "white space in the attribute list" : "text after a quoted string")
            }
            return Entry(name: name, value: ByteSpan(valueStart, valueEnd), isQuoted: true, isUnterminated: isUnterminated)
        }

        private mutating func plainValue(name: ByteSpan) -> Entry {
            let valueStart = index
            index = ByteSearch.first(ASCII.comma, in: base, from: index, to: end)
            var valueEnd = index
            if valueEnd > valueStart && ASCII.isWhitespace(base[valueEnd - 1]) {
                note("white space in the attribute list")
                while valueEnd > valueStart && ASCII.isWhitespace(base[valueEnd - 1]) { valueEnd -= 1 }
            }
            if valueEnd == valueStart { note("attribute with an empty value") }
            return Entry(name: name, value: ByteSpan(valueStart, valueEnd), isQuoted: false, isUnterminated: false)
        }
    }
}
