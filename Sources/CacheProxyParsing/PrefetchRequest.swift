public import HLS


/// A `POST /prefetch` body, parsed from untrusted JSON:
///
/// ```json
/// {"urls": ["https://cdn.example/a/master.m3u8", "https://cdn.example/b.mp4"], "seconds": 6, "variant": "lowest"}
/// ```
///
/// `urls` lists the videos in feed order. Exactly one budget applies to each video: `seconds` of
/// playback, `segments`, or `bytes` (every byte fetched counts, playlists included).
/// `variant` picks the variant of a multivariant playlist: `"lowest"` (the default),
/// `"highest"`, a height such as `"720p"`, or a bandwidth in bits per second, 10,000 or more
/// (the closest one; see ``VariantSpelling``). `headers` (header fields
/// for every origin request, such as credentials) applies to the whole list; an item may be
/// `{"url": "...", "headers": {...}}` instead of a string, whose fields win over the list's.
public struct PrefetchRequest: Sendable, Hashable {
    public enum Budget: Sendable, Hashable {
        case seconds(Double)
        case segments(Int)
        case bytes(UInt64)
    }

    public enum VariantChoice: Sendable, Hashable {
        case lowest
        case highest
        /// The variant whose bandwidth is closest to this many bits per second.
        case closest(UInt64)
        /// The variant whose RESOLUTION height is closest to this many pixels (`"720p"`).
        case height(Int)

        /// The same choice as an ``HLS/HLSQuality``, which picks the variant.
        public var quality: HLSQuality {
            switch self {
            case .lowest: .lowest
            case .highest: .highest
            case .closest(let bitsPerSecond): .bandwidth(bitsPerSecond)
            case .height(let height): .height(height)
            }
        }
    }

    /// Limits on what one request may ask for.
    public struct Limits: Sendable, Hashable {
        public var maximumBodyBytes = 256 * 1024
        public var maximumURLs = 100
        public var maximumSeconds: Double = 3600
        public var maximumSegments = 1000
        public var maximumBytes: UInt64 = 1 << 30

        public init() {}
    }

    public var urls: [OriginURL]
    public var budget: Budget
    public var variant: VariantChoice
    /// The header fields of each URL's origin requests, one per entry of ``urls``: the item's
    /// fields over the list's.
    public var headers: [OriginHeaderFields]

    /// A request for `urls`, whose origin requests carry `headers` (the same for every URL).
    public init(urls: [OriginURL], budget: Budget, variant: VariantChoice = .lowest, headers: OriginHeaderFields = OriginHeaderFields()) {
        self.urls = urls
        self.budget = budget
        self.variant = variant
        self.headers = Array(repeating: headers, count: urls.count)
    }

    /// Parses and validates a request body.
    ///
    /// - Throws: ``ParseError``: `ParseError.Code.tooLong` for a body or list over the limits,
    ///   `ParseError.Code.malformed` for anything that is not the JSON above,
    ///   `ParseError.Code.missing` without URLs or a budget, and the errors of ``OriginURL``.
    public init(parsing body: some Collection<UInt8>, limits: Limits = Limits()) throws(ParseError) {
        guard body.count <= limits.maximumBodyBytes else {
            throw ParseError(.tooLong, "a prefetch request is limited to \(limits.maximumBodyBytes) bytes")
        }
        let decoded = try RequestBodyDecoding.decode(Body.self, from: body, schema: Self.schema)
        guard !decoded.urls.isEmpty else { throw ParseError(.missing, "\"urls\" is empty", field: "\"urls\"") }
        guard decoded.urls.count <= limits.maximumURLs else {
            throw ParseError(.tooLong, "more than \(limits.maximumURLs) urls", field: "\"urls\"")
        }
        var urls: [OriginURL] = []
        var headers: [OriginHeaderFields] = []
        let listHeaders = decoded.headers ?? OriginHeaderFields()
        for (index, item) in decoded.urls.enumerated() {
            urls.append(try RequestBodyDecoding.originURL(item.url, field: item.isObject ? "urls[\(index)].url" : "urls[\(index)]"))
            guard let own = item.headers else {
                headers.append(listHeaders)
                continue
            }
            // The limits hold for what is sent: the item's fields with the list's.
            let merged = own.merged(over: listHeaders).fields.map { (name: $0.name, value: $0.value) }
            headers.append(try OriginHeaderFields(merged, context: "urls[\(index)].headers"))
        }
        self.headers = headers
        let budgets = [decoded.seconds != nil, decoded.segments != nil, decoded.bytes != nil].filter { $0 }.count
        guard budgets == 1 else {
            throw ParseError(budgets == 0 ? .missing : .malformed, "give exactly one of \"seconds\", \"segments\" or \"bytes\"", field: "\"seconds\"")
        }
        if let seconds = decoded.seconds {
            guard seconds.isFinite, seconds > 0, seconds <= limits.maximumSeconds else {
                throw ParseError(.malformed, "\"seconds\" must be above 0 and at most \(limits.maximumSeconds)", field: "\"seconds\"")
            }
            budget = .seconds(seconds)
        } else if let segments = decoded.segments?.value {
            guard segments > 0, segments <= limits.maximumSegments else {
                throw ParseError(.malformed, "\"segments\" must be 1 to \(limits.maximumSegments)", field: "\"segments\"")
            }
            budget = .segments(segments)
        } else {
            let bytes = UInt64(clamping: decoded.bytes?.value ?? 0)
            guard bytes > 0, bytes <= limits.maximumBytes else {
                throw ParseError(.malformed, "\"bytes\" must be 1 to \(limits.maximumBytes)", field: "\"bytes\"")
            }
            budget = .bytes(bytes)
        }
        self.urls = urls
        variant = try decoded.variant.map { value throws(ParseError) in VariantChoice(try VariantSpelling.quality(value, field: "variant")) } ?? .lowest
    }

    /// Every member a prefetch request may have, and what each must be.
    static let schema = RequestBodySchema(what: "prefetch request", members: [
        "urls": #"an array of URL strings or {"url": "...", "headers": {...}} objects"#,
        "urls[]": #"a URL string or {"url": "...", "headers": {...}}"#,
        "urls[].url": RequestBodySchema.Expected.url,
        "urls[].headers": RequestBodySchema.Expected.headers,
        "seconds": "a number of seconds",
        "segments": "a whole number of segments",
        "bytes": "a whole number of bytes",
        "variant": RequestBodySchema.Expected.variant,
        "headers": RequestBodySchema.Expected.headers,
    ], openObjects: ["headers", "urls[].headers"])

    private struct Body: Decodable {
        var urls: [Item]
        var seconds: Double?
        var segments: JSONWholeNumber?
        var bytes: JSONWholeNumber?
        var variant: JSONScalar?
        var headers: OriginHeaderFields?
    }

    /// A URL, or `{"url": ..., "headers": {...}}`.
    private struct Item: Decodable {
        var url: String
        var headers: OriginHeaderFields?
        /// Whether the item was given as an object (errors about its URL name `urls[N].url`).
        var isObject = false

        private enum CodingKeys: String, CodingKey {
            case url, headers
        }

        init(from decoder: any Decoder) throws {
            if let url = try? decoder.singleValueContainer().decode(String.self) {
                self.url = url
                return
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            isObject = true
            url = try container.decode(String.self, forKey: .url)
            headers = try container.decodeIfPresent(OriginHeaderFields.self, forKey: .headers)
        }
    }
}
