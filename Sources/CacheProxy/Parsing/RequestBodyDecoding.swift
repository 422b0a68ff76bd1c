#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes a JSON request body into a `Decodable` value and turns decoding failures into one
/// line that names the field in the user's words (`"urls" is missing`), never a coding path
/// or a Swift type name.
enum RequestBodyDecoding {
    static func decode<Body: Decodable>(_ type: Body.Type, from body: some Collection<UInt8>, what: String) throws(ParseError) -> Body {
        do {
            return try JSONDecoder().decode(Body.self, from: Data(body))
        } catch let error as ParseError {
            throw error
        } catch {
            throw describe(error, what: what)
        }
    }

    private static func describe(_ error: any Error, what: String) -> ParseError {
        func name(_ path: [any CodingKey], _ last: (any CodingKey)? = nil) -> String {
            let keys = (path + (last.map { [$0] } ?? [])).map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return "\"" + keys.joined(separator: ".").replacing(".[", with: "[") + "\""
        }
        switch error as? DecodingError {
        case .keyNotFound(let key, let context):
            return ParseError(.missing, "\(name(context.codingPath, key)) is missing", field: name(context.codingPath, key))
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let field = name(context.codingPath)
            return ParseError(.malformed, "\(field) must be \(kind(of: type))", field: field)
        case .dataCorrupted(let context) where !context.codingPath.isEmpty:
            let field = name(context.codingPath)
            return ParseError(.malformed, "\(field) has a value that is not allowed", field: field)
        default:
            return ParseError(.malformed, "the body is not a JSON \(what)")
        }
    }

    private static func kind(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is [String].Type, is [Any].Type: "an array"
        case is Double.Type, is Int.Type, is UInt64.Type, is Int64.Type: "a number"
        default: "of another type"
        }
    }
}

/// A coding key for any member name, to find the names a body has that a request does not
/// know (a misspelled option must not be ignored silently).
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }

    /// Throws when `decoder`'s object has a member outside `known`.
    static func refuseUnknown(in decoder: any Decoder, known: Set<String>) throws {
        let names = try decoder.container(keyedBy: AnyCodingKey.self).allKeys.map(\.stringValue)
        if let unknown = names.sorted().first(where: { !known.contains($0) }) {
            let path = (decoder.codingPath.map(\.stringValue) + [String(unknown.prefix(40))]).joined(separator: ".")
            let shown = escaped(path)
            throw ParseError(.unsupported, "unknown field \"\(shown)\"", field: "\"\(shown)\"")
        }
    }

    /// `name` as inside a JSON string: quotes, backslashes and control characters escaped, so that
    /// an error naming a member stays one line whatever the body sent.
    private static func escaped(_ name: String) -> String {
        var text = ""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}":
                let hex = String(scalar.value, radix: 16, uppercase: true)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text
    }
}
