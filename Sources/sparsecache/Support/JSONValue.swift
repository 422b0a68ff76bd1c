/// A JSON document built in code and printed deterministically (keys in insertion order),
/// so that scripts can rely on both the keys and `null` for absent values. Printed through
/// ``JSONWriter``, the CLI's one JSON writer, so every command escapes alike.
enum JSONValue: Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case unsigned(UInt64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.rendered() == rhs.rendered() }

    static func optional(_ value: UInt64?) -> JSONValue { value.map { .unsigned($0) } ?? .null }
    static func optional(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }

    func rendered() -> String {
        var writer = JSONWriter()
        write(to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    func write(to writer: inout JSONWriter) {
        switch self {
        case .null: writer.number(nil as String?)
        case .bool(let value): writer.bool(value)
        case .integer(let value): writer.number(String(value))
        case .unsigned(let value): writer.number(value)
        case .number(let value): writer.number(value.isFinite ? "\(value)" : nil)
        case .string(let value): writer.string(value)
        case .array(let values):
            writer.beginArray()
            for value in values { value.write(to: &writer) }
            writer.endArray()
        case .object(let members):
            writer.beginObject()
            for (key, value) in members {
                writer.key(key)
                value.write(to: &writer)
            }
            writer.endObject()
        }
    }
}
