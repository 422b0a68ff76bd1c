/// What a request target asks of the proxy, parsed from the untrusted request line.
///
/// `GET /proxy?url=<percent-encoded http(s) URL>` fetches through the cache; `GET /status`
/// reports the proxy's state; `POST|DELETE /prefetch` manages the prefetch queue. Anything else
/// is ``ParseError/Code/notFound``.
public enum ProxyRoute: Sendable, Hashable {
    case proxy(OriginURL)
    case status
    case prefetch

    /// Parses a request target in origin form (`/proxy?url=...`).
    ///
    /// The `url` query parameter is percent-decoded (`+` stays a plus sign: it is not form
    /// encoding) and validated as an ``OriginURL``; other parameters are ignored.
    ///
    /// - Throws: ``ParseError``: ``ParseError/Code/tooLong`` past `limits`,
    ///   ``ParseError/Code/notFound`` for another path, ``ParseError/Code/missing`` without a
    ///   `url` parameter, ``ParseError/Code/tooMany`` for too many parameters, and the
    ///   errors of ``OriginURL`` for the URL itself.
    public init(parsing target: some Collection<UInt8>, limits: RequestTargetLimits = RequestTargetLimits()) throws(ParseError) {
        guard target.count <= limits.maximumLength else {
            throw ParseError(.tooLong, "request target longer than \(limits.maximumLength) bytes")
        }
        let bytes = Array(target)
        let questionMark = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.count
        let path = bytes[..<questionMark]
        if path.elementsEqual("/status".utf8) {
            self = .status
            return
        }
        if path.elementsEqual("/prefetch".utf8) {
            self = .prefetch
            return
        }
        guard path.elementsEqual("/proxy".utf8) else { throw ParseError(.notFound, "no such resource") }
        var encodedURL: ArraySlice<UInt8>?
        var count = 0
        for parameter in bytes[min(questionMark + 1, bytes.count)...].split(separator: UInt8(ascii: "&")) {
            count += 1
            guard count <= limits.maximumQueryParameters else {
                throw ParseError(.tooMany, "more than \(limits.maximumQueryParameters) query parameters")
            }
            let equals = parameter.firstIndex(of: UInt8(ascii: "=")) ?? parameter.endIndex
            guard parameter[..<equals].elementsEqual("url".utf8) else { continue }
            guard encodedURL == nil else { throw ParseError(.malformed, "more than one url parameter") }
            encodedURL = parameter[min(equals + 1, parameter.endIndex)...]
        }
        guard let encodedURL, !encodedURL.isEmpty else { throw ParseError(.missing, "no url parameter") }
        self = .proxy(try OriginURL(parsing: try Self.percentDecoded(encodedURL), maximumLength: limits.maximumURLLength))
    }

    /// Parses a request target given as a string.
    public init(parsing target: String, limits: RequestTargetLimits = RequestTargetLimits()) throws(ParseError) {
        try self.init(parsing: Array(target.utf8), limits: limits)
    }

    /// Decodes `%XX` escapes; a `%` without two hex digits is malformed (a lenient decoder
    /// would let two spellings of one URL reach the origin differently from how they are keyed).
    static func percentDecoded(_ bytes: ArraySlice<UInt8>) throws(ParseError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "%") else {
                output.append(byte)
                index += 1
                continue
            }
            guard index + 2 < bytes.endIndex, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else {
                throw ParseError(.malformed, "bad percent escape in the url parameter")
            }
            output.append(high << 4 | low)
            index += 3
        }
        return output
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// Bounds on what a request target may cost to parse.
public struct RequestTargetLimits: Sendable, Hashable {
    /// The longest request target accepted. Default 16 KiB (a percent-encoded 8 KiB URL can
    /// take nearly three times its length, but real ones stay far below).
    public var maximumLength: Int
    /// The longest origin URL once decoded. Default 8 KiB.
    public var maximumURLLength: Int
    /// The most query parameters. Default 64.
    public var maximumQueryParameters: Int

    public init(maximumLength: Int = 16 * 1024, maximumURLLength: Int = OriginURL.defaultMaximumLength, maximumQueryParameters: Int = 64) {
        self.maximumLength = maximumLength
        self.maximumURLLength = maximumURLLength
        self.maximumQueryParameters = maximumQueryParameters
    }
}
