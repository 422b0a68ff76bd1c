/// The `@t`, `@d` and `@r` of one `S` element, found in one pass over its attributes (their
/// names are one byte long) with `@t` and `@d` read straight from the bytes when they need no
/// decoding.
struct TimelineAttributes {
    /// Attribute indices, -1 when absent.
    var t: Int32 = -1
    var d: Int32 = -1
    var r: Int32 = -1
    /// `@t` and `@d`, nil when absent or not unsigned integers.
    var time: UInt64?
    var duration: UInt64?

    init(document: XMLDocument, attributes: UnsafeBufferPointer<AttributeRecord>, bytes: UnsafeBufferPointer<UInt8>,
         record: ElementRecord) {
        do {
            for attribute in record.firstAttribute..<(record.firstAttribute + record.attributeCount) {
                let name = attributes[Int(attribute)]
                guard name.nameEnd - name.nameStart == 1 else { continue }
                switch bytes[Int(name.nameStart)] {
                case UInt8(ascii: "t"): t = attribute
                case UInt8(ascii: "d"): d = attribute
                case UInt8(ascii: "r"): r = attribute
                default: break
                }
            }
            if t >= 0 { time = Self.unsigned(t, document, attributes, bytes) }
            if d >= 0 { duration = Self.unsigned(d, document, attributes, bytes) }
        }
    }

    private static func unsigned(_ attribute: Int32, _ document: XMLDocument, _ attributes: UnsafeBufferPointer<AttributeRecord>,
                                 _ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        let record = attributes[Int(attribute)]
        if record.needsDecoding { return XMLNumber.unsigned(document.value(ofAttribute: attribute)) }
        return XMLNumber.unsigned(bytes, from: Int(record.valueStart), to: Int(record.valueEnd))
    }
}
