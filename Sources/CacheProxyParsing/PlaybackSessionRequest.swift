public import HLS

/// A `POST /sessions` body, parsed from untrusted JSON: what an app asks of a playback session.
///
/// ```json
/// {"url": "https://cdn.example/v/master.m3u8", "quality": "720p", "bufferAhead": {"seconds": 30},
///  "startBuffer": {"segments": 2}, "hideUntilBuffered": true,
///  "headers": {"Authorization": "Bearer T", "Cookie": "session=S"}}
/// ```
///
/// Exactly one of `url` (a presentation: a multivariant or media playlist) and `urls` (several
/// presentations played one after another as one virtual playlist). Unknown fields are refused,
/// so a misspelled option is never ignored. Every error names the field it is about.
public struct PlaybackSessionRequest: Sendable, Hashable {
    /// An amount of media: seconds of playback or a number of segments.
    public enum Amount: Sendable, Hashable {
        case seconds(Double)
        case segments(Int)
    }

    /// Limits on what one request may ask for.
    public struct Limits: Sendable, Hashable {
        public var maximumBodyBytes = 64 * 1024
        public var maximumURLs = 100
        public var maximumSeconds: Double = 3600
        public var maximumSegments = 1000
        public var maximumTimeout: Double = 86_400

        public init() {}
    }

    /// The presentations: one, or several for a virtual playlist.
    public var urls: [OriginURL]
    /// Whether the request gave `urls` (a virtual playlist), even of one presentation.
    public var isVirtual: Bool
    /// Lock to one variant; nil keeps every variant (subject to ``maximumBandwidth``).
    public var quality: HLSQuality?
    /// Drop variants above this many bits per second (never all of them).
    public var maximumBandwidth: UInt64?
    /// The BANDWIDTH (and AVERAGE-BANDWIDTH) written on the variants served.
    public var bandwidth: UInt64?
    /// How much to keep fetched ahead of the player's position.
    public var bufferAhead: Amount?
    /// How much the first media playlist response waits for, from the start.
    public var startBuffer: Amount?
    /// The longest the first media playlist response waits for ``startBuffer``.
    public var startTimeout: Duration
    /// Media playlists list only the segments already cached, contiguous from the first.
    public var hideUntilBuffered: Bool
    /// Only the first N segments of each media playlist go through the proxy.
    public var headSegments: Int?
    /// A session with no request for this long goes idle: its fetches stop, and its player's next
    /// request resumes it (only `DELETE` or ``PlaybackSession/close()`` closes it).
    public var idleTimeout: Duration
    /// Header fields every origin request made for the session carries (its playlists,
    /// segments, keys, init sections, buffering): credentials such as `Authorization` or
    /// `Cookie`. Checked as ``OriginHeaderFields`` checks them; never reported but by name.
    public var headers = OriginHeaderFields()

    /// A request for one presentation with every option at its default.
    public init(url: OriginURL) {
        self.init(urls: [url], isVirtual: false)
    }

    /// A virtual playlist of `urls`, played one after another.
    public init(joining urls: [OriginURL]) {
        self.init(urls: urls, isVirtual: true)
    }

    private init(urls: [OriginURL], isVirtual: Bool) {
        self.urls = urls
        self.isVirtual = isVirtual
        startTimeout = .seconds(10)
        hideUntilBuffered = false
        idleTimeout = .seconds(60)
    }

    /// Parses and validates a request body.
    ///
    /// - Throws: ``ParseError`` with the field it is about: `ParseError.Code.tooLong` for a
    ///   body or list over the limits, `ParseError.Code.missing` without a URL,
    ///   `ParseError.Code.unsupported` for an unknown field, `ParseError.Code.malformed` for
    ///   anything else that is not the JSON above, and the errors of ``OriginURL``.
    public init(parsing body: some Collection<UInt8>, limits: Limits = Limits()) throws(ParseError) {
        guard body.count <= limits.maximumBodyBytes else {
            throw ParseError(.tooLong, "a session request is limited to \(limits.maximumBodyBytes) bytes")
        }
        let decoded = try RequestBodyDecoding.decode(Body.self, from: body, schema: Self.schema)
        switch (decoded.url, decoded.urls) {
        case (let url?, nil):
            self.init(urls: [try RequestBodyDecoding.originURL(url, field: "url")], isVirtual: false)
        case (nil, let urls?):
            guard !urls.isEmpty else { throw ParseError(.missing, "\"urls\" is empty", field: "\"urls\"") }
            guard urls.count <= limits.maximumURLs else {
                throw ParseError(.tooLong, "\"urls\" lists more than \(limits.maximumURLs) presentations", field: "\"urls\"")
            }
            var origins: [OriginURL] = []
            for (index, url) in urls.enumerated() { origins.append(try RequestBodyDecoding.originURL(url, field: "urls[\(index)]")) }
            self.init(urls: origins, isVirtual: true)
        case (nil, nil):
            throw ParseError(.missing, "give \"url\" (a presentation) or \"urls\" (a virtual playlist)", field: "\"url\"")
        case (.some, .some):
            throw ParseError(.malformed, "give \"url\" or \"urls\", not both", field: "\"urls\"")
        }
        quality = try decoded.quality.map { value throws(ParseError) in try VariantSpelling.quality(value, field: "quality") }
        maximumBandwidth = try Self.positive(decoded.maxBandwidth, field: "maxBandwidth")
        bandwidth = try Self.positive(decoded.bandwidth, field: "bandwidth")
        bufferAhead = try decoded.bufferAhead.map { value throws(ParseError) in try Self.amount(value, field: "bufferAhead", limits: limits) }
        startBuffer = try decoded.startBuffer.map { value throws(ParseError) in try Self.amount(value, field: "startBuffer", limits: limits) }
        if let seconds = decoded.startTimeout { startTimeout = try Self.duration(seconds, field: "startTimeout", limits: limits) }
        if let seconds = decoded.idleTimeout { idleTimeout = try Self.duration(seconds, field: "idleTimeout", limits: limits) }
        hideUntilBuffered = decoded.hideUntilBuffered ?? false
        headers = decoded.headers ?? OriginHeaderFields()
        if let head = decoded.headSegments?.value {
            guard head >= 1, head <= limits.maximumSegments else {
                throw ParseError(.malformed, "\"headSegments\" must be 1 to \(limits.maximumSegments)", field: "\"headSegments\"")
            }
            headSegments = head
        }
    }

    private static func positive(_ value: Double?, field: String) throws(ParseError) -> UInt64? {
        guard let value else { return nil }
        guard value >= 1, value <= 1e15, value.rounded() == value else {
            throw ParseError(.malformed, "\"\(field)\" must be a whole number of bits/s above 0", field: "\"\(field)\"")
        }
        return UInt64(value)
    }

    private static func duration(_ seconds: Double, field: String, limits: Limits) throws(ParseError) -> Duration {
        guard seconds.isFinite, seconds > 0, seconds <= limits.maximumTimeout else {
            throw ParseError(.malformed, "\"\(field)\" must be above 0 and at most \(Int(limits.maximumTimeout)) seconds", field: "\"\(field)\"")
        }
        return .milliseconds(Int64((seconds * 1000).rounded(.up)))
    }

    private static func amount(_ value: AmountBody, field: String, limits: Limits) throws(ParseError) -> Amount {
        switch (value.seconds, value.segments?.value) {
        case (let seconds?, nil):
            guard seconds.isFinite, seconds > 0, seconds <= limits.maximumSeconds else {
                throw ParseError(.malformed, "\"\(field).seconds\" must be above 0 and at most \(Int(limits.maximumSeconds))", field: "\"\(field).seconds\"")
            }
            return .seconds(seconds)
        case (nil, let segments?):
            guard segments >= 1, segments <= limits.maximumSegments else {
                throw ParseError(.malformed, "\"\(field).segments\" must be 1 to \(limits.maximumSegments)", field: "\"\(field).segments\"")
            }
            return .segments(segments)
        default:
            throw ParseError(.malformed, "\"\(field)\" takes exactly one of \"seconds\" and \"segments\"", field: "\"\(field)\"")
        }
    }

    /// Every member a session request may have, and what each must be.
    static let schema = RequestBodySchema(what: "session request", members: [
        "url": RequestBodySchema.Expected.url,
        "urls": "an array of URL strings",
        "urls[]": RequestBodySchema.Expected.url,
        "quality": RequestBodySchema.Expected.quality,
        "maxBandwidth": "a whole number of bits/s above 0",
        "bandwidth": "a whole number of bits/s above 0",
        "bufferAhead": RequestBodySchema.Expected.amount,
        "bufferAhead.seconds": "a number of seconds",
        "bufferAhead.segments": "a whole number of segments",
        "startBuffer": RequestBodySchema.Expected.amount,
        "startBuffer.seconds": "a number of seconds",
        "startBuffer.segments": "a whole number of segments",
        "startTimeout": "a number of seconds",
        "hideUntilBuffered": "true or false",
        "headSegments": "a whole number of segments",
        "idleTimeout": "a number of seconds",
        "headers": RequestBodySchema.Expected.headers,
    ], openObjects: ["headers"])

    private struct Body: Decodable {
        var url: String?
        var urls: [String]?
        var quality: JSONScalar?
        var maxBandwidth: Double?
        var bandwidth: Double?
        var bufferAhead: AmountBody?
        var startBuffer: AmountBody?
        var startTimeout: Double?
        var hideUntilBuffered: Bool?
        var headSegments: JSONWholeNumber?
        var idleTimeout: Double?
        var headers: OriginHeaderFields?
    }

    private struct AmountBody: Decodable {
        var seconds: Double?
        var segments: JSONWholeNumber?
    }
}
