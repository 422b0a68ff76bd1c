/// Any JSON value, as a request body holds it: what ``RequestBodySchema`` walks to find the
/// members a request does not know before the body is decoded into its own type.
///
/// Decoded with `JSONDecoder`, which bounds the nesting depth; numbers are kept as a flag only,
/// since the schema looks at names and shapes, never at values.
enum JSONTree: Decodable, Sendable {
    case scalar
    case array([JSONTree])
    case object([String: JSONTree])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let object = try? container.decode([String: JSONTree].self) {
            self = .object(object)
        } else if let array = try? container.decode([JSONTree].self) {
            self = .array(array)
        } else if container.decodeNil() || (try? container.decode(Bool.self)) != nil || (try? container.decode(Double.self)) != nil
                    || (try? container.decode(String.self)) != nil {
            self = .scalar
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }
}
