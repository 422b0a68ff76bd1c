/// Any element of the MPD, known to the model or not: its name, attributes, text and children,
/// and where it is. Unknown elements and attributes are reachable through this view.
public struct DASHElement: Sendable {
    let document: XMLDocument
    let index: Int32

    /// The qualified name as written (`AdaptationSet`, `cenc:pssh`).
    public var name: String { document.name(ofElement: index) }
    /// The name without its prefix.
    public var localName: String { document.localName(ofElement: index) }
    /// The attributes in document order, with decoded values; namespace declarations included.
    public var attributes: [DASHAttribute] {
        document.attributeIndices(of: index).map {
            DASHAttribute(name: document.name(ofAttribute: $0), value: document.value(ofAttribute: $0))
        }
    }
    /// The decoded value of the attribute with this qualified name, or nil.
    public func attribute(_ name: String) -> String? {
        document.attributeIndices(of: index).first { document.name(ofAttribute: $0) == name }
            .map { document.value(ofAttribute: $0) }
    }
    /// The child elements, in document order.
    public var children: [DASHElement] {
        document.children(of: index).map { DASHElement(document: document, index: $0) }
    }
    /// The character data directly inside the element (decoded; CDATA included, comments not).
    public var text: String { document.text(of: index) }
    /// Where the start tag begins.
    public var position: DASHPosition { document.position(ofElement: index) }
    /// The element's bytes as written, from its start tag to its end tag.
    public var sourceBytes: ArraySlice<UInt8> {
        let record = document.elements[Int(index)]
        return document.bytes[Int(record.start)..<Int(record.end)]
    }
}

/// One attribute of a ``DASHElement``: its qualified name and decoded value.
public struct DASHAttribute: Hashable, Sendable {
    /// The qualified name as written.
    public var name: String
    /// The value with references replaced and white space normalized.
    public var value: String
}
