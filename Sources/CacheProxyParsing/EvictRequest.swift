/// A `POST /evict` body, parsed from untrusted JSON: the size to evict the store down to, in
/// bytes. Least recently used entries go first (expired ones before them); pinned entries and
/// entries being filled stay.
///
/// ```json
/// {"to": 500000000}
/// ```
///
/// Unknown fields are refused, as on every control route.
public struct EvictRequest: Sendable, Hashable {
    /// The most bytes the store may take afterwards.
    public var toSize: UInt64

    /// The largest body accepted.
    public static let maximumBodyBytes = 1024

    public init(toSize: UInt64) {
        self.toSize = toSize
    }

    /// Parses and validates a request body.
    ///
    /// - Throws: ``ParseError`` with the field it is about: `ParseError.Code.tooLong` past
    ///   ``maximumBodyBytes``, `ParseError.Code.missing` without `to`,
    ///   `ParseError.Code.unsupported` for an unknown field, `ParseError.Code.malformed`
    ///   for anything else that is not the JSON above.
    public init(parsing body: some Collection<UInt8>) throws(ParseError) {
        guard body.count <= Self.maximumBodyBytes else {
            throw ParseError(.tooLong, "an evict request is limited to \(Self.maximumBodyBytes) bytes")
        }
        let to = try RequestBodyDecoding.decode(Body.self, from: body, schema: Self.schema).to.value
        guard let size = UInt64(exactly: to) else {
            throw ParseError(.malformed, "\"to\" must be a whole number of bytes, 0 or more", field: "\"to\"")
        }
        toSize = size
    }

    /// Every member an evict request may have, and what each must be.
    static let schema = RequestBodySchema(what: "evict request", members: [
        "to": "a whole number of bytes, 0 or more",
    ])

    private struct Body: Decodable {
        var to: JSONWholeNumber
    }
}
