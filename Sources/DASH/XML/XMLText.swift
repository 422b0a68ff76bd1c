/// Decoding and encoding of character data and attribute values. The tokenizer has already
/// checked every reference, so decoding never fails.
enum XMLText {
    /// `raw` with references replaced; line ends normalized to LF (XML 1.0 section 2.11) and,
    /// for an attribute value, tab, CR and LF replaced by a space (section 3.3.3).
    static func decode(_ raw: ArraySlice<UInt8>, normalizingAttribute: Bool) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(raw.count)
        appendDecoded(raw, normalizingAttribute: normalizingAttribute, to: &output)
        return output
    }

    static func appendDecoded(_ raw: ArraySlice<UInt8>, normalizingAttribute: Bool, to output: inout [UInt8]) {
        var index = raw.startIndex
        while index < raw.endIndex {
            let byte = raw[index]
            switch byte {
            case UInt8(ascii: "&"):
                let (scalar, next) = reference(in: raw, at: index)
                appendUTF8(scalar, to: &output)
                index = next
            case 0x0D:
                output.append(normalizingAttribute ? 0x20 : 0x0A)
                index += 1
                if index < raw.endIndex && raw[index] == 0x0A { index += 1 }
            case 0x09, 0x0A:
                output.append(normalizingAttribute ? 0x20 : byte)
                index += 1
            default:
                output.append(byte)
                index += 1
            }
        }
    }

    /// The character data of `raw`, a run of content between child elements: text decoded,
    /// CDATA sections taken literally (line ends normalized), comments and processing
    /// instructions left out.
    static func appendCharacterData(_ raw: ArraySlice<UInt8>, to output: inout [UInt8]) {
        var index = raw.startIndex
        var textStart = index
        while index < raw.endIndex {
            guard raw[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            appendDecoded(raw[textStart..<index], normalizingAttribute: false, to: &output)
            let rest = raw[index...]
            if rest.starts(with: "<![CDATA[".utf8) {
                let bodyStart = index + 9
                let end = firstIndex(of: "]]>", in: raw, from: bodyStart)
                appendLineNormalized(raw[bodyStart..<end], to: &output)
                index = min(end + 3, raw.endIndex)
            } else if rest.starts(with: "<!--".utf8) {
                index = min(firstIndex(of: "-->", in: raw, from: index + 4) + 3, raw.endIndex)
            } else {
                index = min(firstIndex(of: "?>", in: raw, from: index + 2) + 2, raw.endIndex)
            }
            textStart = index
        }
        appendDecoded(raw[textStart..<raw.endIndex], normalizingAttribute: false, to: &output)
    }

    private static func appendLineNormalized(_ raw: ArraySlice<UInt8>, to output: inout [UInt8]) {
        var index = raw.startIndex
        while index < raw.endIndex {
            if raw[index] == 0x0D {
                output.append(0x0A)
                index += 1
                if index < raw.endIndex && raw[index] == 0x0A { index += 1 }
            } else {
                output.append(raw[index])
                index += 1
            }
        }
    }

    private static func firstIndex(of terminator: StaticString, in raw: ArraySlice<UInt8>, from start: Int) -> Int {
        let pattern = UnsafeBufferPointer(start: terminator.utf8Start, count: terminator.utf8CodeUnitCount)
        var index = start
        while index + pattern.count <= raw.endIndex {
            if raw[index] == pattern[0] && raw[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
            index += 1
        }
        return raw.endIndex
    }

    /// The scalar of the (valid) reference at `raw[index]` and the index past its `;`.
    private static func reference(in raw: ArraySlice<UInt8>, at index: Int) -> (UInt32, Int) {
        var cursor = index + 1
        if cursor < raw.endIndex && raw[cursor] == UInt8(ascii: "#") {
            cursor += 1
            let isHex = cursor < raw.endIndex && raw[cursor] == UInt8(ascii: "x")
            if isHex { cursor += 1 }
            var value: UInt32 = 0
            while cursor < raw.endIndex, let digit = XMLTokenizer.digitValue(raw[cursor], hex: isHex) {
                value = value &* (isHex ? 16 : 10) &+ digit
                cursor += 1
            }
            return (value, min(cursor + 1, raw.endIndex))
        }
        let nameStart = cursor
        while cursor < raw.endIndex && raw[cursor] != UInt8(ascii: ";") { cursor += 1 }
        let name = raw[nameStart..<cursor]
        let scalar: UInt32 = switch name.count {
        case 2: name.first == UInt8(ascii: "l") ? 0x3C : 0x3E
        case 3: 0x26
        default: name.first == UInt8(ascii: "a") ? 0x27 : 0x22
        }
        return (scalar, min(cursor + 1, raw.endIndex))
    }

    private static func appendUTF8(_ value: UInt32, to output: inout [UInt8]) {
        guard let scalar = Unicode.Scalar(value) else { return }
        output.append(contentsOf: UTF8.encode(scalar)!)
    }

    // MARK: - Encoding

    /// `value` escaped for an attribute value or character data: `&`, `<`, `>`, both quotes and
    /// every control character become references, so that reading it back (with attribute
    /// value normalization) gives `value` exactly.
    static func appendEscaped(_ value: some Sequence<UInt8>, to output: inout [UInt8]) {
        for byte in value {
            switch byte {
            case UInt8(ascii: "&"): output.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): output.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): output.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "\""): output.append(contentsOf: "&quot;".utf8)
            case UInt8(ascii: "'"): output.append(contentsOf: "&apos;".utf8)
            case 0..<0x20, 0x7F: output.append(contentsOf: "&#\(byte);".utf8)
            default: output.append(byte)
            }
        }
    }
}
