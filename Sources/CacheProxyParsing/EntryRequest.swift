/// A `POST /entries/pin` or `POST /entries/unpin` body, parsed from untrusted JSON: the entry
/// to change, by its URL (the cache key `GET /entries` lists, or the URL it was fetched from).
///
/// ```json
/// {"url": "https://cdn.example/show/seg1.ts"}
/// ```
///
/// Unknown fields are refused, as on every control route.
public struct EntryRequest: Sendable, Hashable {
    /// The entry's URL or cache key, as given.
    public var url: String

    /// The largest body accepted.
    public static let maximumBodyBytes = 16 * 1024

    public init(url: String) {
        self.url = url
    }

    /// Parses and validates a request body.
    ///
    /// - Throws: ``ParseError`` with the field it is about: `ParseError.Code.tooLong` past
    ///   ``maximumBodyBytes``, `ParseError.Code.missing` without `url`,
    ///   `ParseError.Code.unsupported` for an unknown field, `ParseError.Code.malformed`
    ///   for anything else that is not the JSON above.
    public init(parsing body: some Collection<UInt8>) throws(ParseError) {
        guard body.count <= Self.maximumBodyBytes else {
            throw ParseError(.tooLong, "an entry request is limited to \(Self.maximumBodyBytes) bytes")
        }
        let decoded = try RequestBodyDecoding.decode(Body.self, from: body, schema: Self.schema)
        url = try Self.key(decoded.url, field: "url")
    }

    /// A key as a request names it: not empty, at most 8 KiB, no control characters.
    static func key(_ text: String, field: String) throws(ParseError) -> String {
        guard !text.isEmpty, text.utf8.count <= OriginURL.defaultMaximumLength,
              !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw ParseError(.malformed, "\"\(field)\" must be an entry's URL: not empty, at most \(OriginURL.defaultMaximumLength) bytes, no control characters",
                             field: "\"\(field)\"")
        }
        return text
    }

    /// Every member an entry request may have, and what each must be.
    static let schema = RequestBodySchema(what: "entry request", members: [
        "url": "an entry's URL (a string)",
    ])

    private struct Body: Decodable {
        var url: String
    }
}
