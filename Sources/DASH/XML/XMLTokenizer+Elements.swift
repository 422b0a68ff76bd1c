extension XMLTokenizer {
    // MARK: - Start tags

    /// The start tag at `index` (its `<`): the name, the attributes, and either `/>` or `>`.
    /// The element is linked to its parent and, unless empty, opened.
    mutating func parseStartTag() throws(DASHParseError) {
        let start = index
        let nameStart = start + 1
        guard nameStart < count, classes[Int(base[nameStart])] & ByteClass.nameStart != 0 else {
            throw error(.malformedXML, "\"<\" not followed by a name", at: start)
        }
        let nameEnd = try scanName(from: nameStart)
        var localNameStart = nameStart
        for position in nameStart..<nameEnd where base[position] == UInt8(ascii: ":") {
            localNameStart = position + 1
            break
        }
        guard elements.count < limits.maximumElements else {
            throw error(.limitExceeded, "more than \(limits.maximumElements) elements", at: start)
        }
        guard open.count < limits.maximumDepth else {
            throw error(.limitExceeded, "elements nested deeper than \(limits.maximumDepth)", at: start)
        }
        let firstAttribute = attributes.count
        var isEmpty = false
        while true {
            let beforeSpace = index
            while index < count && classes[Int(base[index])] & ByteClass.whitespace != 0 { index += 1 }
            guard index < count else { throw error(.malformedXML, "unterminated start tag", at: start) }
            let current = base[index]
            if current == UInt8(ascii: ">") {
                index += 1
                break
            }
            if current == UInt8(ascii: "/") {
                guard byte(index + 1) == UInt8(ascii: ">") else {
                    throw error(.malformedXML, "\"/\" not followed by \">\" in a start tag", at: index)
                }
                index += 2
                isEmpty = true
                break
            }
            guard index > beforeSpace else {
                throw error(.malformedXML, "attributes must be separated by white space", at: index)
            }
            try parseAttribute(elementStart: start, firstAttribute: firstAttribute)
        }
        let attributeCount = attributes.count - firstAttribute
        if attributeCount > 1 { try checkDuplicates(from: firstAttribute) }
        let parent = open.last?.element ?? -1
        var kind = ElementKind.other
        if localNameStart == nameStart {
            kind = ElementKind.of(base, nameStart, nameEnd)
        } else if isMPDPrefix(nameStart, localNameStart - 1) {
            kind = ElementKind.of(base, localNameStart, nameEnd)
        }
        // Offsets and counts are below the input's size, which `parse()` checked fits in Int32.
        let newIndex = Int32(truncatingIfNeeded: elements.count)
        elements.append(ElementRecord(
            start: Int32(truncatingIfNeeded: start), nameEnd: Int32(truncatingIfNeeded: nameEnd),
            localNameStart: Int32(truncatingIfNeeded: localNameStart), startTagEnd: Int32(truncatingIfNeeded: index),
            contentEnd: Int32(truncatingIfNeeded: index), end: Int32(truncatingIfNeeded: index), parent: parent,
            firstAttribute: Int32(truncatingIfNeeded: firstAttribute),
            attributeCount: Int32(truncatingIfNeeded: attributeCount), kind: kind))
        if parent < 0 {
            recordMPDPrefixes(from: firstAttribute)
            // The root's own kind depends on the prefixes it declares.
            if localNameStart != nameStart && isMPDPrefix(nameStart, localNameStart - 1) {
                elements[0].kind = ElementKind.of(base, localNameStart, nameEnd)
            }
        } else {
            let last = open[open.count - 1].lastChild
            if last < 0 {
                elements[Int(parent)].firstChild = newIndex
            } else {
                elements[Int(last)].nextSibling = newIndex
            }
            open[open.count - 1].lastChild = newIndex
            elements[Int(parent)].content |= ElementRecord.hasChildElements
        }
        if !isEmpty { open.append((newIndex, -1)) }
    }

    /// A name from `start` (a name-start byte); returns where it ends. Non-ASCII bytes in a name
    /// must be UTF-8.
    private mutating func scanName(from start: Int) throws(DASHParseError) -> Int {
        var end = start
        var union: UInt8 = 0
        while end < count {
            let value = base[end]
            guard classes[Int(value)] & ByteClass.nameCharacter != 0 else { break }
            union |= value
            end += 1
        }
        let hasNonASCII = union >= 0x80
        guard end - start <= limits.maximumNameBytes else {
            throw error(.limitExceeded, "a name longer than \(limits.maximumNameBytes) bytes", at: start)
        }
        if hasNonASCII { try checkCharacters(from: start, to: end) }
        index = end
        return end
    }

    /// `name = "value"` at `index`.
    private mutating func parseAttribute(elementStart: Int, firstAttribute: Int) throws(DASHParseError) {
        let nameStart = index
        guard classes[Int(base[nameStart])] & ByteClass.nameStart != 0 else {
            throw error(.malformedXML, "expected an attribute name, \"/>\" or \">\"", at: nameStart)
        }
        guard attributes.count - firstAttribute < limits.maximumAttributesPerElement else {
            throw error(.limitExceeded, "more than \(limits.maximumAttributesPerElement) attributes on one element", at: nameStart)
        }
        let nameEnd = try scanName(from: nameStart)
        var isPrefixed = false
        for position in nameStart..<nameEnd where base[position] == UInt8(ascii: ":") {
            isPrefixed = true
            break
        }
        while index < count && ByteClass.isWhitespace(base[index]) { index += 1 }
        guard byte(index) == UInt8(ascii: "=") else {
            throw error(.malformedXML, "attribute without \"=\"", at: index)
        }
        index += 1
        while index < count && ByteClass.isWhitespace(base[index]) { index += 1 }
        let quote = byte(index)
        guard quote == 0x22 || quote == 0x27 else {
            throw error(.malformedXML, "attribute value without quotes", at: index)
        }
        index += 1
        let valueStart = index
        var needsDecoding = false
        while true {
            index = valueRunEnd(from: index)
            guard index < count else { throw error(.malformedXML, "unterminated attribute value", at: valueStart - 1) }
            let value = base[index]
            if value == quote { break }
            switch value {
            case 0x22, 0x27:
                index += 1
            case UInt8(ascii: "<"):
                throw error(.malformedXML, "\"<\" in an attribute value", at: index)
            case UInt8(ascii: "&"):
                index = try parseReference(at: index)
                needsDecoding = true
            case 0x09, 0x0A, 0x0D:
                needsDecoding = true
                index += 1
            default:
                try checkOtherByte(value)
            }
        }
        guard index - valueStart <= limits.maximumValueBytes else {
            throw error(.limitExceeded, "an attribute value longer than \(limits.maximumValueBytes) bytes", at: valueStart)
        }
        // Offsets below the input's size, which `parse()` checked fits in Int32.
        attributes.append(AttributeRecord(nameStart: Int32(truncatingIfNeeded: nameStart),
                                          nameEnd: Int32(truncatingIfNeeded: nameEnd),
                                          valueStart: Int32(truncatingIfNeeded: valueStart),
                                          valueEnd: Int32(truncatingIfNeeded: index),
                                          needsDecoding: needsDecoding, isPrefixed: isPrefixed))
        index += 1
    }

    /// The first byte at or after `start` that ends the plain run of an attribute value
    /// (``ByteClass/valueSpecial``), or `count`.
    @inline(__always)
    private func valueRunEnd(from start: Int) -> Int {
        var position = start
        while position &+ 16 <= count {
            let lanes = ByteVector.load(base, position)
            let special = ByteVector.equal(lanes, 0x22) .| ByteVector.equal(lanes, 0x27) .| ByteVector.equal(lanes, 0x3C)
                .| ByteVector.equal(lanes, 0x26) .| ByteVector.controlOrNonASCII(lanes)
            let first = ByteVector.firstSet(special)
            if first < 16 { return position &+ first }
            position &+= 16
        }
        while position < count && classes[Int(base[position])] & ByteClass.valueSpecial == 0 { position &+= 1 }
        return position
    }

    /// The first byte at or after `start` that ends the plain run of character data
    /// (``ByteClass/textSpecial``: tab and LF do not), or `count`. Between elements that run is
    /// the indentation, a dozen bytes before each of thousands of `S` elements.
    @inline(__always)
    private func textRunEnd(from start: Int) -> Int {
        var position = start
        while position &+ 16 <= count {
            let lanes = ByteVector.load(base, position)
            let control = ByteVector.controlOrNonASCII(lanes) .& .!(ByteVector.equal(lanes, 0x09) .| ByteVector.equal(lanes, 0x0A))
            let special = ByteVector.equal(lanes, 0x3C) .| ByteVector.equal(lanes, 0x26) .| ByteVector.equal(lanes, 0x5D)
                .| control
            let first = ByteVector.firstSet(special)
            if first < 16 { return position &+ first }
            position &+= 16
        }
        while position < count && classes[Int(base[position])] & ByteClass.textSpecial == 0 { position &+= 1 }
        return position
    }

    /// A control character is an error; a non-ASCII byte must start a UTF-8 sequence, which is
    /// skipped.
    @inline(__always)
    private mutating func checkOtherByte(_ value: UInt8) throws(DASHParseError) {
        if value < 0x80 {
            throw error(.encoding, "control character 0x\(String(value, radix: 16)) is not allowed in XML", at: index)
        }
        let length = UTF8Scalar.sequenceLength(base, index, count)
        guard length > 0 else { throw error(.encoding, "bytes that are not UTF-8", at: index) }
        index += length
    }

    /// Attribute names must be unique within a start tag. Compared pairwise: the count is
    /// bounded by `maximumAttributesPerElement`, and elements with many attributes are long.
    private func checkDuplicates(from first: Int) throws(DASHParseError) {
        for later in (first + 1)..<attributes.count {
            let name = attributes[later]
            let length = Int(name.nameEnd - name.nameStart)
            for earlier in first..<later {
                let other = attributes[earlier]
                guard Int(other.nameEnd - other.nameStart) == length else { continue }
                if memoryEqual(Int(other.nameStart), Int(name.nameStart), length) {
                    throw error(.malformedXML, "attribute \"\(String(decoding: UnsafeBufferPointer(start: base + Int(name.nameStart), count: length), as: UTF8.self))\" appears twice", at: Int(name.nameStart))
                }
            }
        }
    }

    @inline(__always)
    func memoryEqual(_ first: Int, _ second: Int, _ length: Int) -> Bool {
        for offset in 0..<length where base[first + offset] != base[second + offset] { return false }
        return true
    }

    /// Whether `base[start..<end]` is a prefix the root binds to the MPD namespace.
    private func isMPDPrefix(_ start: Int, _ end: Int) -> Bool {
        mpdPrefixes.contains { prefix in
            prefix.count == end - start && prefix.withUnsafeBufferPointer { memcmpEqual($0, start) }
        }
    }

    private func memcmpEqual(_ prefix: UnsafeBufferPointer<UInt8>, _ start: Int) -> Bool {
        for offset in 0..<prefix.count where prefix[offset] != base[start + offset] { return false }
        return true
    }

    /// `xmlns:p="urn:mpeg:dash:schema:mpd:2011"` on the root element.
    private mutating func recordMPDPrefixes(from first: Int) {
        for index in first..<attributes.count where attributes[index].isPrefixed {
            let attribute = attributes[index]
            let nameStart = Int(attribute.nameStart)
            guard Int(attribute.nameEnd) - nameStart > 6, hasPrefix("xmlns:", at: nameStart) else { continue }
            let value = UnsafeBufferPointer(start: base + Int(attribute.valueStart),
                                            count: Int(attribute.valueEnd - attribute.valueStart))
            if value.elementsEqual(Self.mpdNamespace) {
                mpdPrefixes.append(Array(UnsafeBufferPointer(start: base + nameStart + 6,
                                                             count: Int(attribute.nameEnd) - nameStart - 6)))
            }
        }
    }

    // MARK: - Content

    /// The content of the open elements, until the root's end tag.
    mutating func parseContent() throws(DASHParseError) {
        var textStart = index
        while let current = open.last {
            index = textRunEnd(from: index)
            guard index < count else {
                let record = elements[Int(current.element)]
                throw error(.malformedXML, "element \"\(name(of: record))\" is never closed", at: Int(record.start))
            }
            let value = base[index]
            switch value {
            case UInt8(ascii: "<"):
                guard index - textStart <= limits.maximumValueBytes else {
                    throw error(.limitExceeded, "a text run longer than \(limits.maximumValueBytes) bytes", at: textStart)
                }
                try parseMarkupInContent(current.element)
                textStart = index
            case UInt8(ascii: "&"):
                index = try parseReference(at: index)
                elements[Int(current.element)].content |= ElementRecord.needsDecoding
            case UInt8(ascii: "]"):
                if hasPrefix("]]>", at: index) {
                    throw error(.malformedXML, "\"]]>\" in character data", at: index)
                }
                index += 1
            case 0x0D:
                elements[Int(current.element)].content |= ElementRecord.needsDecoding
                index += 1
            default:
                try checkOtherByte(value)
            }
        }
    }

    /// The markup at `index` (a `<`) inside the content of `parent`.
    private mutating func parseMarkupInContent(_ parent: Int32) throws(DASHParseError) {
        let next = byte(index + 1)
        if next == UInt8(ascii: "/") {
            try parseEndTag()
        } else if next == UInt8(ascii: "!") {
            elements[Int(parent)].content |= ElementRecord.hasMarkup
            if hasPrefix("<!--", at: index) {
                try parseComment()
            } else if hasPrefix("<![CDATA[", at: index) {
                try parseCDATA()
            } else if hasPrefix("<!DOCTYPE", at: index) {
                throw error(.doctype, "a document type declaration (DTD) is refused", at: index)
            } else {
                throw error(.malformedXML, "markup declaration outside a DTD", at: index)
            }
        } else if next == UInt8(ascii: "?") {
            elements[Int(parent)].content |= ElementRecord.hasMarkup
            try parseProcessingInstruction()
        } else {
            try parseStartTag()
        }
    }

    /// `</name>` at `index`, which must close the innermost open element.
    private mutating func parseEndTag() throws(DASHParseError) {
        let start = index
        guard let current = open.last else { throw error(.malformedXML, "end tag without a start tag", at: start) }
        let record = elements[Int(current.element)]
        let nameLength = Int(record.nameEnd - record.start - 1)
        let nameStart = start + 2
        guard nameStart + nameLength <= count, memoryEqual(nameStart, Int(record.start) + 1, nameLength),
              classes[Int(byte(nameStart + nameLength))] & ByteClass.nameCharacter == 0 else {
            throw error(.malformedXML, "end tag does not match the start tag of \"\(name(of: record))\"", at: start)
        }
        index = nameStart + nameLength
        while index < count && ByteClass.isWhitespace(base[index]) { index += 1 }
        guard byte(index) == UInt8(ascii: ">") else { throw error(.malformedXML, "unterminated end tag", at: start) }
        index += 1
        elements[Int(current.element)].contentEnd = Int32(truncatingIfNeeded: start)
        elements[Int(current.element)].end = Int32(truncatingIfNeeded: index)
        open.removeLast()
    }

    func name(of record: ElementRecord) -> String {
        String(decoding: UnsafeBufferPointer(start: base + Int(record.start) + 1, count: Int(record.nameEnd - record.start - 1)),
               as: UTF8.self)
    }

    // MARK: - References

    /// Checks the reference at `offset` (its `&`) and returns the offset past its `;`. Only the
    /// five predefined entities and character references to XML characters exist: there is no
    /// DTD to declare others, so an unknown name can never be expanded, recursively or not.
    func parseReference(at offset: Int) throws(DASHParseError) -> Int {
        var position = offset + 1
        if byte(position) == UInt8(ascii: "#") {
            position += 1
            let isHex = byte(position) == UInt8(ascii: "x")
            if isHex { position += 1 }
            let digitsStart = position
            var value: UInt32 = 0
            while position < count, let digit = Self.digitValue(base[position], hex: isHex) {
                value = value * (isHex ? 16 : 10) + digit
                guard value <= 0x10FFFF else { throw error(.entity, "character reference beyond U+10FFFF", at: offset) }
                position += 1
            }
            guard position > digitsStart, byte(position) == UInt8(ascii: ";") else {
                throw error(.entity, "malformed character reference", at: offset)
            }
            guard UTF8Scalar.isXMLCharacter(value) else {
                throw error(.entity, "character reference to U+\(String(value, radix: 16, uppercase: true)), which XML does not allow", at: offset)
            }
            return position + 1
        }
        let nameStart = position
        while position < count && position - nameStart < 8 && classes[Int(base[position])] & ByteClass.nameCharacter != 0 {
            position += 1
        }
        guard byte(position) == UInt8(ascii: ";") else {
            throw error(.entity, "\"&\" that does not start a reference (write &amp;)", at: offset)
        }
        switch position - nameStart {
        case 2 where (hasPrefix("lt", at: nameStart) || hasPrefix("gt", at: nameStart)),
             3 where hasPrefix("amp", at: nameStart),
             4 where hasPrefix("apos", at: nameStart) || hasPrefix("quot", at: nameStart):
            return position + 1
        default:
            let name = String(decoding: UnsafeBufferPointer(start: base + nameStart, count: position - nameStart), as: UTF8.self)
            throw error(.entity, "reference to the undeclared entity \"&\(name);\": only &lt; &gt; &amp; &apos; &quot; and character references are allowed", at: offset)
        }
    }

    @inline(__always)
    static func digitValue(_ byte: UInt8, hex: Bool) -> UInt32? {
        switch byte {
        case 0x30...0x39: UInt32(byte - 0x30)
        case 0x41...0x46 where hex: UInt32(byte - 0x41 + 10)
        case 0x61...0x66 where hex: UInt32(byte - 0x61 + 10)
        default: nil
        }
    }
}
