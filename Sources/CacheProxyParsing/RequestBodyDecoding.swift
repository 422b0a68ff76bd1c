#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes a JSON request body by its ``RequestBodySchema``: members the schema does not list
/// are refused first, then the body is decoded into its `Decodable` type, and a decoding failure
/// becomes one line that names the field in the user's words and says what it must be
/// (`"bufferAhead" must be {"seconds": N} or {"segments": N}`), never a coding path or a Swift
/// type name.
enum RequestBodyDecoding {
    static func decode<Body: Decodable>(_ type: Body.Type, from body: some Collection<UInt8>, schema: RequestBodySchema) throws(ParseError) -> Body {
        let data = Data(body)
        do {
            let tree = try JSONDecoder().decode(JSONTree.self, from: data)
            try schema.refuseUnknownMembers(in: tree)
            return try JSONDecoder().decode(Body.self, from: data)
        } catch let error as ParseError {
            throw error
        } catch {
            throw describe(error, schema: schema)
        }
    }

    /// The origin URL a member names; its errors name the member (`"urls[2]": ...`).
    static func originURL(_ text: String, field: String) throws(ParseError) -> OriginURL {
        do {
            return try OriginURL(parsing: Array(text.utf8))
        } catch {
            throw ParseError(error.code, "\"\(field)\": \(error.message)", field: "\"\(field)\"")
        }
    }

    private static func describe(_ error: any Error, schema: RequestBodySchema) -> ParseError {
        switch error as? DecodingError {
        case .keyNotFound(let key, let context):
            let field = Path(context.codingPath + [key])
            return ParseError(.missing, "\(field.shown) is missing", field: field.shown)
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let field = Path(context.codingPath)
            guard !context.codingPath.isEmpty else { break }
            let expected = schema.expectation(at: field.pattern) ?? kind(of: type)
            return ParseError(.malformed, "\(field.shown) must be \(expected)", field: field.shown)
        case .dataCorrupted(let context) where !context.codingPath.isEmpty:
            let field = Path(context.codingPath)
            let expected = schema.expectation(at: field.pattern).map { "must be \($0)" } ?? "has a value that is not allowed"
            return ParseError(.malformed, "\(field.shown) \(expected)", field: field.shown)
        default:
            break
        }
        return ParseError(.malformed, "the body is not a JSON \(schema.what)")
    }

    /// A coding path as errors show it (`"urls[1].headers"`) and as the schema lists it
    /// (`urls[].headers`).
    private struct Path {
        var shown: String
        var pattern: String

        init(_ keys: [any CodingKey]) {
            var shown = "", pattern = ""
            for key in keys {
                if let index = key.intValue {
                    shown += "[\(index)]"
                    pattern += "[]"
                } else {
                    let separator = shown.isEmpty ? "" : "."
                    shown += separator + key.stringValue
                    pattern += separator + key.stringValue
                }
            }
            self.shown = RequestBodySchema.quoted(shown)
            self.pattern = pattern
        }
    }

    private static func kind(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Double.Type, is Int.Type, is UInt64.Type, is Int64.Type: "a number"
        default: "a value of another kind"
        }
    }
}
