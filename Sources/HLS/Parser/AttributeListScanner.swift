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

    /// What was wrong with an attribute list; the first problem is reported.
    enum Problem: UInt8 {
        case whiteSpace
        case attributeWithoutValue
        case emptyAttribute
        case trailingComma
        case unterminatedQuote
        case textAfterQuote
        case emptyValue

        var message: String {
            switch self {
            case .whiteSpace: "white space in the attribute list"
            case .attributeWithoutValue: "attribute without a value"
            case .emptyAttribute: "empty attribute"
            case .trailingComma: "trailing comma in the attribute list"
            case .unterminatedQuote: "unterminated quoted string"
            case .textAfterQuote: "text after a quoted string"
            case .emptyValue: "attribute with an empty value"
            }
        }
    }

    /// Splits `span` into entries, in order.
    struct Iterator {
        let base: UnsafePointer<UInt8>
        var index: Int
        let end: Int
        /// Where readable memory ends (at or after `end`): searches may load up to it.
        let readableEnd: Int
        /// The first problem found so far, if any.
        private(set) var problem: Problem?

        init(_ base: UnsafePointer<UInt8>, _ span: ByteSpan, readableEnd: Int? = nil) {
            self.base = base
            index = span.lowerBound
            end = span.upperBound
            self.readableEnd = max(readableEnd ?? span.upperBound, span.upperBound)
        }

        private mutating func note(_ found: Problem) {
            if problem == nil { problem = found }
        }

        /// The next entry. A well-formed `NAME=VALUE` or `NAME="VALUE"` takes the short path: one
        /// search for `=`, one for the closing quote or comma. Anything else goes the long way,
        /// which recovers and notes the problem.
        @inline(__always)
        mutating func next() -> Entry? {
            guard index < end else { return nil }
            let nameStart = index
            let equals = ByteSearch.first(ASCII.equals, or: ASCII.comma, in: base, from: index, to: end,
                                          readableEnd: readableEnd)
            if equals < end && equals > nameStart && base[equals] == ASCII.equals
                && !ASCII.isWhitespace(base[nameStart]) && !ASCII.isWhitespace(base[equals &- 1]) {
                let valueStart = equals &+ 1
                var valueEnd = end
                var isQuoted = false
                if valueStart < end && base[valueStart] == ASCII.quote {
                    let close = ByteSearch.first(ASCII.quote, in: base, from: valueStart &+ 1, to: end,
                                                 readableEnd: readableEnd)
                    if close < end && (close &+ 1 == end || base[close &+ 1] == ASCII.comma) {
                        valueEnd = close &+ 1
                        isQuoted = true
                    } else {
                        valueEnd = -1
                    }
                } else {
                    valueEnd = ByteSearch.first(ASCII.comma, in: base, from: valueStart, to: end, readableEnd: readableEnd)
                    if valueEnd == valueStart || ASCII.isWhitespace(base[valueStart])
                        || ASCII.isWhitespace(base[valueEnd &- 1]) {
                        valueEnd = -1
                    }
                }
                if valueEnd >= 0 {
                    index = valueEnd
                    if index < end {
                        index &+= 1
                        if index == end { note(.trailingComma) }
                    }
                    return Entry(name: ByteSpan(nameStart, equals), value: ByteSpan(valueStart, valueEnd),
                                 isQuoted: isQuoted, isUnterminated: false)
                }
            }
            return recoveringNext()
        }

        /// The general case, for lists with white space, empty entries, missing values or quotes.
        @inline(never)
        private mutating func recoveringNext() -> Entry? {
            while index < end {
                if ASCII.isWhitespace(base[index]) {
                    note(.whiteSpace)
                    while index < end && ASCII.isWhitespace(base[index]) { index += 1 }
                }
                let nameStart = index
                index = ByteSearch.first(ASCII.equals, or: ASCII.comma, in: base, from: index, to: end)
                var nameEnd = index
                if nameEnd > nameStart && ASCII.isWhitespace(base[nameEnd - 1]) {
                    note(.whiteSpace)
                    while nameEnd > nameStart && ASCII.isWhitespace(base[nameEnd - 1]) { nameEnd -= 1 }
                }
                guard index < end, base[index] == ASCII.equals, nameEnd > nameStart else {
                    note(nameEnd > nameStart ? .attributeWithoutValue : .emptyAttribute)
                    if index < end { index += 1 }
                    continue
                }
                index += 1
                if index < end && ASCII.isWhitespace(base[index]) {
                    note(.whiteSpace)
                    while index < end && ASCII.isWhitespace(base[index]) { index += 1 }
                }
                let entry = index < end && base[index] == ASCII.quote
                    ? quotedValue(name: ByteSpan(nameStart, nameEnd))
                    : plainValue(name: ByteSpan(nameStart, nameEnd))
                if index < end {
                    index += 1
                    if index == end { note(.trailingComma) }
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
                note(.unterminatedQuote)
            }
            let valueEnd = index
            if index < end && base[index] != ASCII.comma {
                var onlySpace = true
                while index < end && base[index] != ASCII.comma {
                    if !ASCII.isWhitespace(base[index]) { onlySpace = false }
                    index += 1
                }
                note(onlySpace ? .whiteSpace : .textAfterQuote)
            }
            return Entry(name: name, value: ByteSpan(valueStart, valueEnd), isQuoted: true, isUnterminated: isUnterminated)
        }

        private mutating func plainValue(name: ByteSpan) -> Entry {
            let valueStart = index
            index = ByteSearch.first(ASCII.comma, in: base, from: index, to: end)
            var valueEnd = index
            if valueEnd > valueStart && ASCII.isWhitespace(base[valueEnd - 1]) {
                note(.whiteSpace)
                while valueEnd > valueStart && ASCII.isWhitespace(base[valueEnd - 1]) { valueEnd -= 1 }
            }
            if valueEnd == valueStart { note(.emptyValue) }
            return Entry(name: name, value: ByteSpan(valueStart, valueEnd), isQuoted: false, isUnterminated: false)
        }
    }
}
