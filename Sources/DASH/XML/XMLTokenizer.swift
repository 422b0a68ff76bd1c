/// The bounded, single-pass XML 1.0 tokenizer. It checks well-formedness (names, quoting,
/// nesting, references, UTF-8) and records each element and attribute as offsets into the
/// input; it expands nothing and allocates per element, never per byte.
///
/// What it refuses, always: a DOCTYPE (no DTD, so no entity can be declared, expanded or fetched),
/// references to any entity but the five predefined ones, encodings other than UTF-8, and
/// anything past the ``DASHParserLimits``. Works on a pointer valid for the duration of `parse()`.
struct XMLTokenizer: ~Copyable {
    let base: UnsafePointer<UInt8>
    let count: Int
    let limits: DASHParserLimits
    /// Read once: a static is behind a lazy-initialization check on every access.
    let classes = ByteClass.pointer

    var elements: RecordStore<ElementRecord>
    var attributes: RecordStore<AttributeRecord>
    /// Prefixes that the root element binds to the MPD namespace (`<mpd:MPD xmlns:mpd=...>`).
    var mpdPrefixes: [[UInt8]] = []
    /// The open elements, innermost last, each with the index of its last child so far.
    var open: [(element: Int32, lastChild: Int32)] = []
    var index = 0

    static let mpdNamespace = Array("urn:mpeg:dash:schema:mpd:2011".utf8)

    init(base: UnsafePointer<UInt8>, count: Int, limits: DASHParserLimits) {
        self.base = base
        self.count = count
        self.limits = limits
        // Room for the densest real MPDs (an `S` element every 20 bytes, an attribute every 10)
        // at once: growing by copies costs more than memory the kernel maps only when touched.
        elements = RecordStore(reserving: count / 20 + 16)
        attributes = RecordStore(reserving: count / 10 + 16)
    }

    /// The element and attribute tables, in the memory the parse wrote them into.
    consuming func tables() -> (RecordTable<ElementRecord>, RecordTable<AttributeRecord>) {
        (elements.table(), attributes.table())
    }

    // MARK: - Errors

    /// An error at byte `offset`. Out of line: it is the cold path of every check.
    @inline(never)
    func error(_ code: DASHParseError.Code, _ message: String, at offset: Int) -> DASHParseError {
        DASHParseError(code: code, message: message,
                       position: DASHPosition.of(offset, in: UnsafeBufferPointer(start: base, count: count)))
    }

    @inline(__always)
    func byte(_ offset: Int) -> UInt8 { offset < count ? base[offset] : 0 }

    func hasPrefix(_ text: StaticString, at offset: Int) -> Bool {
        let length = text.utf8CodeUnitCount
        guard offset + length <= count else { return false }
        for position in 0..<length where base[offset + position] != text.utf8Start[position] { return false }
        return true
    }

    // MARK: - Document

    mutating func parse() throws(DASHParseError) {
        guard count <= limits.maximumInputBytes, count <= Int(Int32.max) else {
            throw DASHParseError(code: .limitExceeded, message: "input of \(count) bytes is larger than the limit of \(min(limits.maximumInputBytes, Int(Int32.max)))", position: .whole)
        }
        guard count > 0 else {
            throw DASHParseError(code: .notAManifest, message: "empty input", position: .whole)
        }
        if count >= 2 && ((base[0] == 0xFE && base[1] == 0xFF) || (base[0] == 0xFF && base[1] == 0xFE)
                          || base[0] == 0 || base[1] == 0) {
            throw error(.encoding, "the document is UTF-16 or UTF-32; only UTF-8 is accepted", at: 0)
        }
        if count >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF { index = 3 }
        if hasPrefix("<?xml", at: index) && ByteClass.isWhitespace(byte(index + 5)) {
            try parseDeclaration()
        }
        try parseMisc(beforeRoot: true)
        guard index < count else {
            throw error(.notAManifest, "no root element", at: index)
        }
        try parseStartTag()
        try parseContent()
        try parseMisc(beforeRoot: false)
        guard index == count else {
            throw error(.malformedXML, "content after the root element", at: index)
        }
    }

    /// White space, comments and processing instructions around the root element; a DOCTYPE
    /// before it is refused.
    private mutating func parseMisc(beforeRoot: Bool) throws(DASHParseError) {
        while true {
            while index < count && ByteClass.isWhitespace(base[index]) { index += 1 }
            guard index < count else { return }
            guard base[index] == UInt8(ascii: "<") else {
                throw error(.malformedXML, beforeRoot ? "text before the root element" : "text after the root element", at: index)
            }
            if hasPrefix("<!--", at: index) {
                try parseComment()
            } else if hasPrefix("<?", at: index) {
                try parseProcessingInstruction()
            } else if hasPrefix("<!DOCTYPE", at: index) {
                throw error(.doctype, "a document type declaration (DTD) is refused: MPDs have none, and entities declared in one could expand without bound or name external files", at: index)
            } else if hasPrefix("<!", at: index) {
                throw error(.malformedXML, "markup declaration outside a DTD", at: index)
            } else if beforeRoot {
                return
            } else {
                throw error(.malformedXML, "a second root element", at: index)
            }
        }
    }

    /// `<?xml version="1.0" encoding="..."?>` at the very start: the encoding, when declared,
    /// must be UTF-8.
    private mutating func parseDeclaration() throws(DASHParseError) {
        let start = index
        let end = try find("?>", from: index + 5, what: "XML declaration")
        let body = UnsafeBufferPointer(start: base + start, count: end - start)
        if let encoding = Self.pseudoAttribute("encoding", in: body) {
            let lowered = encoding.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
            guard lowered == Array("utf-8".utf8) || lowered == Array("utf8".utf8) else {
                throw error(.encoding, "the document declares encoding \"\(String(decoding: encoding, as: UTF8.self))\"; only UTF-8 is accepted", at: start)
            }
        }
        try checkCharacters(from: start, to: end)
        index = end + 2
    }

    /// The value of `name="..."` in an XML declaration's bytes.
    private static func pseudoAttribute(_ name: StaticString, in body: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let nameBytes = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        var position = 0
        while position + nameBytes.count <= body.count {
            if body[position..<(position + nameBytes.count)].elementsEqual(nameBytes) {
                var cursor = position + nameBytes.count
                while cursor < body.count && ByteClass.isWhitespace(body[cursor]) { cursor += 1 }
                guard cursor < body.count && body[cursor] == UInt8(ascii: "=") else { return nil }
                cursor += 1
                while cursor < body.count && ByteClass.isWhitespace(body[cursor]) { cursor += 1 }
                guard cursor < body.count, body[cursor] == 0x22 || body[cursor] == 0x27 else { return nil }
                let quote = body[cursor]
                guard let close = body[(cursor + 1)...].firstIndex(of: quote) else { return nil }
                return Array(body[(cursor + 1)..<close])
            }
            position += 1
        }
        return nil
    }

    // MARK: - Markup other than elements

    /// The offset of the first `terminator` at or after `offset`, within the value length limit.
    func find(_ terminator: StaticString, from offset: Int, what: String) throws(DASHParseError) -> Int {
        let first = terminator.utf8Start[0]
        let limit = min(count, offset + limits.maximumValueBytes + terminator.utf8CodeUnitCount)
        var position = offset
        while position < limit {
            if base[position] == first && hasPrefix(terminator, at: position) { return position }
            position += 1
        }
        if limit < count {
            throw error(.limitExceeded, "\(what) longer than \(limits.maximumValueBytes) bytes", at: offset)
        }
        throw error(.malformedXML, "unterminated \(what)", at: offset)
    }

    /// Every byte of `start..<end` is an XML character in UTF-8.
    func checkCharacters(from start: Int, to end: Int) throws(DASHParseError) {
        var position = start
        while position < end {
            let value = base[position]
            if value < 0x80 {
                if value < 0x20 && value != 0x09 && value != 0x0A && value != 0x0D {
                    throw error(.encoding, "control character 0x\(String(value, radix: 16)) is not allowed in XML", at: position)
                }
                position += 1
            } else {
                let length = UTF8Scalar.sequenceLength(base, position, end)
                guard length > 0 else { throw error(.encoding, "bytes that are not UTF-8", at: position) }
                position += length
            }
        }
    }

    /// `<!-- ... -->`, without `--` inside.
    mutating func parseComment() throws(DASHParseError) {
        let start = index
        let dashes = try find("--", from: index + 4, what: "comment")
        guard byte(dashes + 2) == UInt8(ascii: ">") else {
            throw error(.malformedXML, "\"--\" inside a comment", at: dashes)
        }
        try checkCharacters(from: start + 4, to: dashes)
        index = dashes + 3
    }

    /// `<?target ...?>`; the target may not be `xml` in any case (that is the declaration,
    /// allowed only at the very start).
    mutating func parseProcessingInstruction() throws(DASHParseError) {
        let start = index
        var nameEnd = index + 2
        while nameEnd < count && classes[Int(base[nameEnd])] & ByteClass.nameCharacter != 0 { nameEnd += 1 }
        guard nameEnd > index + 2 else { throw error(.malformedXML, "processing instruction without a target", at: start) }
        if nameEnd - index - 2 == 3 && (base[index + 2] | 0x20, base[index + 3] | 0x20, base[index + 4] | 0x20) == (0x78, 0x6D, 0x6C) {
            throw error(.malformedXML, "an XML declaration is allowed only at the start of the document", at: start)
        }
        let end = try find("?>", from: nameEnd, what: "processing instruction")
        try checkCharacters(from: start + 2, to: end)
        index = end + 2
    }

    /// `<![CDATA[ ... ]]>`.
    mutating func parseCDATA() throws(DASHParseError) {
        let start = index
        let end = try find("]]>", from: index + 9, what: "CDATA section")
        try checkCharacters(from: start + 9, to: end)
        index = end + 3
    }
}
