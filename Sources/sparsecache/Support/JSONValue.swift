/// A JSON document built in code and printed deterministically (keys in insertion order),
/// so that scripts can rely on both the keys and `null` for absent values.
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

    func rendered(pretty: Bool = false) -> String {
        var output = ""
        render(into: &output, pretty: pretty, indent: 0)
        return output
    }

    private func render(into output: inout String, pretty: Bool, indent: Int) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .integer(let value): output += String(value)
        case .unsigned(let value): output += String(value)
        case .number(let value): output += value.isFinite ? "\(value)" : "null"
        case .string(let value): Self.renderString(value, into: &output)
        case .array(let values):
            renderContainer(values.map { (nil, $0) }, open: "[", close: "]", into: &output, pretty: pretty, indent: indent)
        case .object(let members):
            renderContainer(members.map { ($0.0, $0.1) }, open: "{", close: "}", into: &output, pretty: pretty, indent: indent)
        }
    }

    private func renderContainer(
        _ members: [(String?, JSONValue)], open: String, close: String,
        into output: inout String, pretty: Bool, indent: Int
    ) {
        output += open
        guard !members.isEmpty else { return output += close }
        let inner = String(repeating: "  ", count: indent + 1)
        for (index, member) in members.enumerated() {
            if index > 0 { output += "," }
            if pretty { output += "\n" + inner }
            if let key = member.0 {
                Self.renderString(key, into: &output)
                output += pretty ? ": " : ":"
            }
            member.1.render(into: &output, pretty: pretty, indent: indent + 1)
        }
        if pretty { output += "\n" + String(repeating: "  ", count: indent) }
        output += close
    }

    private static func renderString(_ value: String, into output: inout String) {
        output += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
