/// A `POST /downloads` body, parsed from untrusted JSON: a whole presentation (or file) to
/// download into the cache while the proxy serves.
///
/// ```json
/// {"url": "https://cdn.example/show/master.m3u8", "variant": "lowest", "allVariants": false, "pin": true,
///  "headers": {"Cookie": "CloudFront-Policy=..."}}
/// ```
///
/// `variant` picks the variant of a multivariant playlist: `"highest"` (the default), `"lowest"`,
/// or a bandwidth in bits per second (the closest); `allVariants` downloads every variant and
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
    /// - Throws: ``ParseError`` with the field it is about: ``ParseError/Code/tooLong`` past
    ///   ``maximumBodyBytes``, ``ParseError/Code/missing`` without `url`,
    ///   ``ParseError/Code/unsupported`` for an unknown field, ``ParseError/Code/malformed``
    ///   for anything else that is not the JSON above, and the errors of ``OriginURL``.
    public init(parsing body: some Collection<UInt8>) throws(ParseError) {
        guard body.count <= Self.maximumBodyBytes else {
            throw ParseError(.tooLong, "a download request is limited to \(Self.maximumBodyBytes) bytes")
        }
        let decoded = try RequestBodyDecoding.decode(Body.self, from: body, what: "download request")
        do {
            url = try OriginURL(parsing: Array(decoded.url.utf8))
        } catch {
            throw ParseError(error.code, "\"url\": \(error.message)", field: "\"url\"")
        }
        switch decoded.variant {
        case nil, .name("highest"): variant = .highest
        case .name("lowest"): variant = .lowest
        case .bandwidth(let bitsPerSecond) where bitsPerSecond >= 1 && bitsPerSecond <= 1e15 && bitsPerSecond.rounded() == bitsPerSecond:
            variant = .closest(UInt64(bitsPerSecond))
        default:
            throw ParseError(.malformed, "\"variant\" must be \"lowest\", \"highest\" or a bandwidth in bits/s", field: "\"variant\"")
        }
        allVariants = decoded.allVariants ?? false
        pin = decoded.pin ?? false
        headers = decoded.headers ?? OriginHeaderFields()
    }

    private struct Body: Decodable {
        var url: String
        var variant: Variant?
        var allVariants: Bool?
        var pin: Bool?
        var headers: OriginHeaderFields?

        private enum CodingKeys: String, CodingKey, CaseIterable {
            case url, variant, allVariants, pin, headers
        }

        init(from decoder: any Decoder) throws {
            try AnyCodingKey.refuseUnknown(in: decoder, known: Set(CodingKeys.allCases.map(\.rawValue)))
            let container = try decoder.container(keyedBy: CodingKeys.self)
            url = try container.decode(String.self, forKey: .url)
            variant = try container.decodeIfPresent(Variant.self, forKey: .variant)
            allVariants = try container.decodeIfPresent(Bool.self, forKey: .allVariants)
            pin = try container.decodeIfPresent(Bool.self, forKey: .pin)
            headers = try container.decodeIfPresent(OriginHeaderFields.self, forKey: .headers)
        }
    }

    private enum Variant: Decodable {
        case name(String)
        case bandwidth(Double)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let name = try? container.decode(String.self) {
                self = .name(name)
            } else {
                self = .bandwidth(try container.decode(Double.self))
            }
        }
    }
}
