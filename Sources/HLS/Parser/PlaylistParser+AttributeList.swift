/// Attribute lists (RFC 8216 section 4.2): `NAME=VALUE` pairs separated by commas, where a
/// quoted-string value may itself hold commas and `=`.
extension PlaylistParser {
    /// Parses the attribute list in `span` into the shared pool and returns the tag's record.
    /// Recovers from stray white space, empty entries, missing `=` and unterminated quotes,
    /// reporting each; the pairs it could read are kept in order.
    mutating func parseAttributeList(_ span: ByteSpan, tag: TagName) throws(HLSParseError) -> TagRecord {
        try attributeList(span, tag: tag).record
    }

    /// ``parseAttributeList(_:tag:)`` with what the one-pass split learned about the list, when
    /// it took it (`summary` is nil when the careful path did).
    @inline(__always)
    mutating func attributeList(_ span: ByteSpan, tag: TagName)
        throws(HLSParseError) -> (record: TagRecord, summary: AttributeListSummary?) {
        if let summary = quickAttributeList(span) {
            if !storage.variables.isEmpty {
                try checkVariableReferences(in: summary.record)
            }
            return (summary.record, summary)
        }
        return (try carefulAttributeList(span, tag: tag), nil)
    }

    /// The scanner's way, for lists that are not plainly well-formed.
    @inline(never)
    private mutating func carefulAttributeList(_ span: ByteSpan, tag: TagName) throws(HLSParseError) -> TagRecord {
        let poolStart = attributes.count
        let maximum = limits.maximumAttributesPerTag
        var nameProblem: NameProblem?
        // Which known names were seen, one bit per name (two words: there are more than 64).
        var seen: (UInt64, UInt64) = (0, 0)
        var scanner = AttributeListScanner.Iterator(base, span, readableEnd: count)
        while let entry = scanner.next() {
            if attributes.count &- poolStart >= maximum {
                throw limitExceeded("more than \(maximum) attributes in \(tag.text)")
            }
            let known = AttributeName.named(base, entry.name, in: attributeTable, readableEnd: count)
            if let known {
                let raw = known.rawValue
                let bit: UInt64 = 1 &<< UInt64(raw & 63)
                let repeated: Bool
                if raw < 64 {
                    repeated = seen.0 & bit != 0
                    seen.0 |= bit
                } else {
                    repeated = seen.1 & bit != 0
                    seen.1 |= bit
                }
                if repeated && nameProblem == nil {
                    nameProblem = .repeated(known)
                }
            } else if nameProblem == nil && !Self.isAttributeName(base, entry.name) {
                nameProblem = .characters
            }
            attributes.append(AttributeRecord(name: entry.name, value: entry.value, knownName: known,
                                                      isQuoted: entry.isQuoted, isUnterminated: entry.isUnterminated))
        }
        if scanner.problem != nil || nameProblem != nil {
            if scanner.problem != nil { currentLine.isCanonical = false }
            let problem = scanner.problem?.message ?? nameProblem?.message ?? ""
            try report(.malformedTag, "\(tag.text): \(problem)")
        }
        let record = TagRecord(line: Int32(truncatingIfNeeded: lineIndex),
                               attributes: AttributeRange(start: Int32(truncatingIfNeeded: poolStart),
                                                          count: Int32(truncatingIfNeeded: attributes.count &- poolStart)))
        if !storage.variables.isEmpty {
            try checkVariableReferences(in: record)
        }
        return record
    }

    /// A problem with the names of an attribute list.
    enum NameProblem {
        case repeated(AttributeName)
        case characters

        var message: String {
            switch self {
            case .repeated(let name): "attribute \(name.text) appears twice"
            case .characters: "attribute name with characters other than A-Z, 0-9 and -"
            }
        }
    }

    static func isAttributeName(_ base: UnsafePointer<UInt8>, _ span: ByteSpan) -> Bool {
        for index in span.lowerBound..<span.upperBound where !ASCII.isAttributeNameByte(base[index]) {
            return false
        }
        return true
    }

    /// The first attribute of `record` with the given name.
    @inline(__always)
    func attribute(_ name: AttributeName, in record: TagRecord) -> AttributeRecord? {
        for index in record.attributes.indices where attributes[index].knownName == name {
            return attributes[index]
        }
        return nil
    }

    /// The content of a quoted-string attribute the tag requires; reports it when it is missing
    /// or not quoted.
    @discardableResult
    mutating func requiredQuoted(_ name: AttributeName, in record: TagRecord, tag: TagName)
        throws(HLSParseError) -> ByteSpan? {
        try requiredQuoted(attribute(name, in: record), name, tag: tag)
    }

    /// `requiredQuoted` for an attribute the caller has looked up already.
    @discardableResult
    mutating func requiredQuoted(_ item: AttributeRecord?, _ name: AttributeName, tag: TagName)
        throws(HLSParseError) -> ByteSpan? {
        guard let item else {
            try report(.attribute, "\(tag.text) needs a \(name.text) attribute")
            return nil
        }
        return try quotedString(item, tag: tag)
    }

    /// Checks the decimal-integer attributes among `names` that the tag has.
    mutating func checkIntegers(_ names: [AttributeName], in record: TagRecord, tag: TagName) throws(HLSParseError) {
        for name in names {
            if let number = attribute(name, in: record) { _ = try integerValue(number, tag: tag) }
        }
    }

    /// Checks an attribute's value type and reports a mismatch. Returns the content span when the
    /// value has the expected form.
    mutating func quotedString(_ attribute: AttributeRecord, tag: TagName) throws(HLSParseError) -> ByteSpan {
        if !attribute.isQuoted {
            try report(.malformedTag, "\(tag.text): \(attributeText(attribute)) must be a quoted string")
        }
        return attribute.content
    }

    mutating func enumeratedString(_ attribute: AttributeRecord, tag: TagName) throws(HLSParseError) -> ByteSpan {
        if attribute.isQuoted {
            try report(.malformedTag, "\(tag.text): \(attributeText(attribute)) must not be quoted")
        }
        return attribute.content
    }

    mutating func integerValue(_ attribute: AttributeRecord, tag: TagName) throws(HLSParseError) -> UInt64? {
        if !attribute.isQuoted, let value = NumberSyntax.decimalInteger(base, attribute.value, readableEnd: count) {
            return value
        }
        try report(.malformedTag, "\(tag.text): \(attributeText(attribute)) must be a decimal integer below 2^64")
        return nil
    }

    mutating func decimalValue(_ attribute: AttributeRecord, tag: TagName, signed: Bool = false)
        throws(HLSParseError) -> ByteSpan? {
        if !attribute.isQuoted, NumberSyntax.isDecimal(base, attribute.value, allowSign: signed, readableEnd: count) {
            return attribute.value
        }
        try report(.malformedTag, "\(tag.text): \(attributeText(attribute)) must be a\(signed ? " signed" : "") decimal number")
        return nil
    }

    mutating func yesNo(_ attribute: AttributeRecord, tag: TagName) throws(HLSParseError) -> Bool {
        if !attribute.isQuoted, let value = yesOrNo(attribute.value) {
            return value
        }
        try report(.malformedTag, "\(tag.text): \(attributeText(attribute)) must be YES or NO")
        return false
    }

    /// True for `YES`, false for `NO`, nil for anything else.
    @inline(__always)
    func yesOrNo(_ span: ByteSpan) -> Bool? {
        if span.count == 3 && base[span.lowerBound] == 0x59 && base[span.lowerBound + 1] == 0x45
            && base[span.lowerBound + 2] == 0x53 {
            return true
        }
        if span.count == 2 && base[span.lowerBound] == 0x4E && base[span.lowerBound + 1] == 0x4F {
            return false
        }
        return nil
    }

    /// The attribute `name` of the list just split in one pass, which holds it.
    @inline(__always)
    func quickAttribute(_ name: AttributeName) -> AttributeRecord {
        attributes[Int(attributePositions[name.rawValue])]
    }

    /// The decimal-integer value of `quickAttribute(name)`, nil when it is not one.
    @inline(__always)
    func quickInteger(_ name: AttributeName) -> UInt64? {
        NumberSyntax.decimalInteger(base, quickAttribute(name).value, readableEnd: count)
    }

    /// True when `quickAttribute(name)` is an unsigned decimal floating-point number.
    @inline(__always)
    func quickDecimal(_ name: AttributeName) -> Bool {
        NumberSyntax.isDecimal(base, quickAttribute(name).value, allowSign: false, readableEnd: count)
    }

    func attributeText(_ attribute: AttributeRecord) -> String {
        text(attribute.name)
    }

    /// Decodes bytes for a message (invalid UTF-8 is replaced, which is fine for diagnostics).
    func text(_ span: ByteSpan) -> String {
        String(decoding: UnsafeBufferPointer(start: base + span.lowerBound, count: max(0, span.count)), as: UTF8.self)
    }

    @inline(__always)
    func bytesEqual(_ span: ByteSpan, _ literal: StaticString) -> Bool {
        guard span.count == literal.utf8CodeUnitCount else { return false }
        let pointer = literal.utf8Start
        for offset in 0..<span.count where base[span.lowerBound + offset] != pointer[offset] {
            return false
        }
        return true
    }

    @inline(__always)
    func bytesEqual(_ lhs: ByteSpan, _ rhs: ByteSpan) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for offset in 0..<lhs.count where base[lhs.lowerBound + offset] != base[rhs.lowerBound + offset] {
            return false
        }
        return true
    }
}
