/// A `POST /downloads` body, parsed from untrusted JSON: a whole presentation (or file) to
/// download into the cache while the proxy serves.
///
/// ```json
/// {"url": "https://cdn.example/show/master.m3u8", "variant": "lowest", "allVariants": false, "pin": true,
///  "headers": {"Cookie": "CloudFront-Policy=..."}}
/// ```
///
/// `variant` picks the variant of a multivariant playlist: `"highest"` (the default), `"lowest"`,
/// a height such as `"720p"`, or a bandwidth in bits per second, 10,000 or more (the closest;
/// see ``VariantSpelling``); `allVariants` downloads every variant and
/// rendition instead; `pin` keeps what was downloaded from eviction. Unknown fields are refused.
public struct DownloadRequest: Sendable, Hashable {
    public var url: OriginURL
    public var variant: PrefetchRequest.VariantChoice
    public var allVariants: Bool
    public var pin: Bool
    /// Header fields every origin request of the download carries (credentials).
    public var headers = OriginHeaderFields()

    /// The largest body accepted.
    public static let maximumBodyBytes = 16 * 1024

    public init(url: OriginURL, variant: PrefetchRequest.VariantChoice = .highest, allVariants: Bool = false, pin: Bool = false) {
        self.url = url
        self.variant = variant
        self.allVariants = allVariants
        self.pin = pin
    }

    /// Parses and validates a request body.
    ///
    /// - Throws: ``ParseError`` with the field it is about: `ParseError.Code.tooLong` past
    ///   ``maximumBodyBytes``, `ParseError.Code.missing` without `url`,
    ///   `ParseError.Code.unsupported` for an unknown field, `ParseError.Code.malformed`
    ///   for anything else that is not the JSON above, and the errors of ``OriginURL``.
    public init(parsing body: some Collection<UInt8>) throws(ParseError) {
        guard body.count <= Self.maximumBodyBytes else {
            throw ParseError(.tooLong, "a download request is limited to \(Self.maximumBodyBytes) bytes")
        }
        let decoded = try RequestBodyDecoding.decode(Body.self, from: body, schema: Self.schema)
        url = try RequestBodyDecoding.originURL(decoded.url, field: "url")
        variant = try decoded.variant.map { value throws(ParseError) in
            PrefetchRequest.VariantChoice(try VariantSpelling.quality(value, field: "variant"))
        } ?? .highest
        allVariants = decoded.allVariants ?? false
        pin = decoded.pin ?? false
        headers = decoded.headers ?? OriginHeaderFields()
    }

    /// Every member a download request may have, and what each must be.
    static let schema = RequestBodySchema(what: "download request", members: [
        "url": RequestBodySchema.Expected.url,
        "variant": RequestBodySchema.Expected.variant,
        "allVariants": "true or false",
        "pin": "true or false",
        "headers": RequestBodySchema.Expected.headers,
    ], openObjects: ["headers"])

    private struct Body: Decodable {
        var url: String
        var variant: JSONScalar?
        var allVariants: Bool?
        var pin: Bool?
        var headers: OriginHeaderFields?
    }
}
