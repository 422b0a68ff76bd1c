/// A tag with an attribute list: its line and its attributes in the shared pool.
struct TagRecord: Sendable {
    var line: Int32
    var attributes: AttributeRange
}
