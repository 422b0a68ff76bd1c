/// A parsed document: the input bytes, kept as they came, and the element and attribute tables
/// the tokenizer recorded over them. Immutable and shared by every view of the model.
final class XMLDocument: Sendable {
    let bytes: [UInt8]
    let elements: RecordTable<ElementRecord>
    let attributes: RecordTable<AttributeRecord>

    /// The first child of each kind the model looks up once per Representation (BaseURL and
    /// segment information), by parent: an AdaptationSet of many Representations is not walked
    /// again for each of them. Keyed by ``childKey(_:_:)``.
    private let firstChildren: [Int64: Int32]
    /// The key of "any of SegmentBase, SegmentList and SegmentTemplate".
    private static let anySegmentInformation: UInt8 = 255

    init(bytes: [UInt8], elements: RecordTable<ElementRecord>, attributes: RecordTable<AttributeRecord>) {
        self.bytes = bytes
        self.elements = elements
        self.attributes = attributes
        var firstChildren: [Int64: Int32] = [:]
        for index in elements.indices.dropFirst() {
            let record = elements[index]
            guard record.kind.isIndexedChild else { continue }
            let key = Self.childKey(record.parent, record.kind.rawValue)
            if firstChildren[key] == nil { firstChildren[key] = Int32(index) }
            if record.kind.isSegmentInformation {
                let anyKey = Self.childKey(record.parent, Self.anySegmentInformation)
                if firstChildren[anyKey] == nil { firstChildren[anyKey] = Int32(index) }
            }
        }
        self.firstChildren = firstChildren
    }

    private static func childKey(_ parent: Int32, _ kind: UInt8) -> Int64 { Int64(parent) << 8 | Int64(kind) }

    /// The first SegmentBase, SegmentList or SegmentTemplate child of `element`.
    func firstSegmentInformation(of element: Int32) -> Int32? {
        firstChildren[Self.childKey(element, Self.anySegmentInformation)]
    }

    // MARK: - Positions

    func position(of offset: Int32) -> DASHPosition { DASHPosition.of(Int(offset), in: bytes) }

    func position(ofElement element: Int32) -> DASHPosition { position(of: elements[Int(element)].start) }

    func position(ofAttribute attribute: Int32) -> DASHPosition { position(of: attributes[Int(attribute)].nameStart) }

    // MARK: - Names

    func name(ofElement element: Int32) -> String {
        let record = elements[Int(element)]
        return string(record.start + 1, record.nameEnd)
    }

    func localName(ofElement element: Int32) -> String {
        let record = elements[Int(element)]
        return string(record.localNameStart, record.nameEnd)
    }

    func name(ofAttribute attribute: Int32) -> String {
        let record = attributes[Int(attribute)]
        return string(record.nameStart, record.nameEnd)
    }

    private func string(_ start: Int32, _ end: Int32) -> String {
        String(decoding: bytes[Int(start)..<Int(end)], as: UTF8.self)
    }

    // MARK: - Attributes

    /// The index of the unprefixed attribute `name` of `element`, or nil.
    func attribute(_ name: StaticString, of element: Int32) -> Int32? {
        let record = elements[Int(element)]
        let length = name.utf8CodeUnitCount
        return bytes.withUnsafeBufferPointer { buffer -> Int32? in
            for index in record.firstAttribute..<(record.firstAttribute + record.attributeCount) {
                let attribute = attributes[Int(index)]
                guard !attribute.isPrefixed, Int(attribute.nameEnd - attribute.nameStart) == length else { continue }
                let start = Int(attribute.nameStart)
                var equal = true
                for offset in 0..<length where buffer[start + offset] != name.utf8Start[offset] {
                    equal = false
                    break
                }
                if equal { return index }
            }
            return nil
        }
    }

    /// The decoded value of attribute `attribute`: references replaced and white space
    /// normalized as XML 1.0 section 3.3.3 says.
    func value(ofAttribute attribute: Int32) -> String {
        let record = attributes[Int(attribute)]
        let range = Int(record.valueStart)..<Int(record.valueEnd)
        guard record.needsDecoding else { return String(decoding: bytes[range], as: UTF8.self) }
        return String(decoding: XMLText.decode(bytes[range], normalizingAttribute: true), as: UTF8.self)
    }

    /// The decoded value of the unprefixed attribute `name`, or nil.
    func value(_ name: StaticString, of element: Int32) -> String? {
        attribute(name, of: element).map { value(ofAttribute: $0) }
    }

    /// The attribute's raw value bytes, as written between the quotes.
    func rawValue(ofAttribute attribute: Int32) -> ArraySlice<UInt8> {
        let record = attributes[Int(attribute)]
        return bytes[Int(record.valueStart)..<Int(record.valueEnd)]
    }

    /// Every attribute of `element`, in order.
    func attributeIndices(of element: Int32) -> Range<Int32> {
        let record = elements[Int(element)]
        return record.firstAttribute..<(record.firstAttribute + record.attributeCount)
    }

    // MARK: - Content

    /// The children of `element`, in document order.
    func children(of element: Int32) -> ChildElements {
        ChildElements(document: self, upcoming: elements[Int(element)].firstChild)
    }

    /// The children of `element` of one kind.
    func children(of element: Int32, kind: ElementKind) -> [Int32] {
        var result: [Int32] = []
        var child = elements[Int(element)].firstChild
        while child >= 0 {
            if elements[Int(child)].kind == kind { result.append(child) }
            child = elements[Int(child)].nextSibling
        }
        return result
    }

    /// The first child of `element` of one kind.
    func firstChild(of element: Int32, kind: ElementKind) -> Int32? {
        if kind.isIndexedChild { return firstChildren[Self.childKey(element, kind.rawValue)] }
        var child = elements[Int(element)].firstChild
        while child >= 0 {
            if elements[Int(child)].kind == kind { return child }
            child = elements[Int(child)].nextSibling
        }
        return nil
    }

    /// The character data of `element` (its text and CDATA sections, decoded; comments,
    /// processing instructions and the text of child elements left out).
    func text(of element: Int32) -> String {
        let record = elements[Int(element)]
        let range = Int(record.startTagEnd)..<Int(record.contentEnd)
        if record.content == 0 { return String(decoding: bytes[range], as: UTF8.self) }
        var output: [UInt8] = []
        output.reserveCapacity(range.count)
        var cursor = range.lowerBound
        var child = record.firstChild
        // The text between child elements; each child's bytes are skipped whole.
        while cursor < range.upperBound {
            let stop = child >= 0 ? Int(elements[Int(child)].start) : range.upperBound
            XMLText.appendCharacterData(bytes[cursor..<stop], to: &output)
            if child >= 0 {
                cursor = Int(elements[Int(child)].end)
                child = elements[Int(child)].nextSibling
            } else {
                cursor = stop
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The byte range of the character data of `element` with the surrounding XML white space
    /// left out, when the content is plain text (no markup, no children): what a rewriter may
    /// replace in place. Nil otherwise.
    func trimmedPlainTextRange(of element: Int32) -> Range<Int>? {
        let record = elements[Int(element)]
        guard record.content & (ElementRecord.hasChildElements | ElementRecord.hasMarkup) == 0 else { return nil }
        var start = Int(record.startTagEnd)
        var end = Int(record.contentEnd)
        while start < end && ByteClass.isWhitespace(bytes[start]) { start += 1 }
        while end > start && ByteClass.isWhitespace(bytes[end - 1]) { end -= 1 }
        return start..<end
    }

    /// The text of an `xs:anyURI` element (`BaseURL`, `Location`, ...): its character data with
    /// the white space the schema type collapses taken off both ends.
    func uriText(of element: Int32) -> String {
        var text = Substring(self.text(of: element))
        while let first = text.utf8.first, ByteClass.isWhitespace(first) { text = text.dropFirst() }
        while let last = text.utf8.last, ByteClass.isWhitespace(last) { text = text.dropLast() }
        return String(text)
    }
}

/// The child elements of one element, following the sibling links.
struct ChildElements: Sequence, IteratorProtocol {
    let document: XMLDocument
    var upcoming: Int32

    mutating func next() -> Int32? {
        guard upcoming >= 0 else { return nil }
        let current = upcoming
        upcoming = document.elements[Int(current)].nextSibling
        return current
    }
}
