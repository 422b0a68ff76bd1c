/// One element of the document, as offsets into the input (all `Int32`: the input is at most
/// `Int32.max` bytes). Children and siblings are linked by index into the element table, which
/// is in document order (an element's index is smaller than its descendants').
struct ElementRecord: BitwiseCopyable {
    /// Offset of the `<` of the start tag.
    var start: Int32
    /// Offset just past the element's qualified name (the name starts at `start + 1`).
    var nameEnd: Int32
    /// Offset of the local name: past the prefix's `:`, or `start + 1` without a prefix.
    var localNameStart: Int32
    /// Offset just past the `>` of the start tag (of `/>` for an empty-element tag).
    var startTagEnd: Int32
    /// Offset of the `</` of the end tag; `startTagEnd` for an empty-element tag.
    var contentEnd: Int32
    /// Offset just past the `>` of the end tag; `startTagEnd` for an empty-element tag.
    var end: Int32
    /// Index of the parent element, -1 for the root.
    var parent: Int32
    /// Index of the first child element, or -1.
    var firstChild: Int32 = -1
    /// Index of the next sibling element, or -1.
    var nextSibling: Int32 = -1
    /// Index of the first attribute in the attribute table.
    var firstAttribute: Int32
    /// Number of attributes, namespace declarations included.
    var attributeCount: Int32
    /// What the element is, for the MPD model.
    var kind: ElementKind
    /// What the content holds besides text (the flags below).
    var content: UInt8 = 0

    /// The element's content holds child elements.
    static let hasChildElements: UInt8 = 1
    /// The content holds comments, CDATA sections or processing instructions.
    static let hasMarkup: UInt8 = 2
    /// The content's text holds references (`&...;`) or CR line ends, so its value needs decoding.
    static let needsDecoding: UInt8 = 4

    var isEmptyElementTag: Bool { contentEnd == startTagEnd && end == startTagEnd }
}

/// One attribute: its name and the value between the quotes, as written.
struct AttributeRecord: BitwiseCopyable {
    var nameStart: Int32
    var nameEnd: Int32
    /// Offset of the first byte of the value (after the opening quote).
    var valueStart: Int32
    /// Offset of the closing quote.
    var valueEnd: Int32
    /// The value holds references or white space that attribute-value normalization changes
    /// (tab, CR, LF), so reading it needs the slow path.
    var needsDecoding: Bool
    /// The name has a prefix (`xlink:href`, `xmlns:cenc`, ...).
    var isPrefixed: Bool
}
