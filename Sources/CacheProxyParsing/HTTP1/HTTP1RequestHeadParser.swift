/// Reads an HTTP/1.1 request head (RFC 9112) from the start of a connection's bytes, strictly:
/// what two parsers could read differently (the root of request smuggling) is refused, not
/// guessed at. Refused: a line ending without CRLF, an unregistered or lower-case method, a
/// target outside visible ASCII, a version other than `HTTP/1.0` and `HTTP/1.1`, white space
/// before a colon or starting a line (obs-fold), a control byte in a value, a `Content-Length`
/// that is not one number or comes twice or beside a `Transfer-Encoding`, transfer codings not
/// ending with `chunked`. Accepted as RFC 9112 allows: empty lines before the request line, more
/// than one space between its parts, obs-text in values.
///
/// Limits are checked as bytes arrive, so a head that will exceed one is refused without
/// waiting for its end, and the bytes a connection may make the proxy hold stay bounded.
///
/// ```swift
/// switch parser.parse(bytes) {
/// case .head(let head, let length): …   // a whole head of `length` bytes; its body follows
/// case .needMore: …                     // wait for more bytes
/// case .invalid(let failure): …         // answer 400 and close
/// }
/// ```
public struct HTTP1RequestHeadParser: Sendable {
    public struct Limits: Sendable, Hashable {
        /// The longest request target, and the longest field line's name and value together.
        public var maximumFieldSize: Int
        /// The most bytes of target, names and values together.
        public var maximumHeadBytes: Int
        /// The most header fields.
        public var maximumFieldCount: Int

        /// Each limit is kept within `0...Int.max / 4`, so that offsets computed from one never
        /// overflow: `Int.max` means no limit.
        public init(maximumFieldSize: Int, maximumHeadBytes: Int, maximumFieldCount: Int) {
            self.maximumFieldSize = Self.bounded(maximumFieldSize)
            self.maximumHeadBytes = Self.bounded(maximumHeadBytes)
            self.maximumFieldCount = Self.bounded(maximumFieldCount)
        }

        private static func bounded(_ limit: Int) -> Int { min(max(limit, 0), Int.max / 4) }
    }

    /// How the request's body is delimited (RFC 9112 section 6.3).
    public enum Framing: Sendable, Hashable {
        case none
        case contentLength(Int)
        case chunked
    }

    public struct Field: Sendable, Hashable {
        public var name: String
        /// Without the white space around it.
        public var value: String
    }

    public struct Head: Sendable, Hashable {
        public var method: String
        public var target: String
        /// 0 for HTTP/1.0, 1 for HTTP/1.1.
        public var minorVersion: Int
        /// In the order sent, names as sent.
        public var fields: [Field]
        public var framing: Framing
    }

    public enum Result: Sendable, Hashable {
        /// A whole head of `length` bytes (empty lines before it and its final empty line
        /// included).
        case head(Head, length: Int)
        /// Nothing wrong so far, and within the limits: wait for more bytes.
        case needMore
        case invalid(HTTP1ParseFailure)
    }

    public let limits: Limits

    public init(limits: Limits) {
        self.limits = limits
    }

    /// Methods registered with IANA that llhttp reads too: a request naming any other is
    /// refused, as it was before this parser.
    static let methods: Set<String> = [
        "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH",
        "COPY", "LOCK", "MKCOL", "MOVE", "PROPFIND", "PROPPATCH", "SEARCH", "UNLOCK", "BIND", "REBIND", "UNBIND", "ACL",
        "REPORT", "MKACTIVITY", "CHECKOUT", "MERGE", "M-SEARCH", "NOTIFY", "SUBSCRIBE", "UNSUBSCRIBE", "PURGE",
        "MKCALENDAR", "LINK", "UNLINK", "SOURCE", "QUERY",
    ]

    /// The syntax of a field line beyond its name and value (`: ` and CRLF), allowed per line
    /// on top of the limits while a line is incomplete.
    private static let lineSyntax = 4

    public func parse(_ bytes: UnsafeRawBufferPointer) -> Result {
        let input = HTTP1Input(bytes: bytes)
        var position = 0
        // RFC 9112 section 2.2: empty lines before the request line are ignored, as many as the
        // head's limit (an endless run of them is a head that never ends).
        while position + 1 < input.count, input[position] == HTTP1Bytes.cr, input[position + 1] == HTTP1Bytes.lf {
            position += 2
            guard position <= limits.maximumHeadBytes else { return .invalid(HTTP1ParseFailure(.headTooLarge, at: position)) }
        }
        var requestLine: (method: String, target: String, minor: Int)?
        var fields: [Field] = []
        var framing = FramingFields()
        var headBytes = 0
        while true {
            let lineLimit = (requestLine == nil ? limits.maximumFieldSize + 16 : limits.maximumFieldSize) + Self.lineSyntax
            let end: Int, next: Int
            switch input.line(from: position, limit: lineLimit) {
            case .invalid(let failure): return .invalid(failure)
            case .incomplete:
                // A line folded (obs-fold) is refused before it ends.
                if position < input.count, HTTP1Bytes.isBlank(input[position]) {
                    return .invalid(HTTP1ParseFailure(.obsoleteLineFolding, at: position))
                }
                return .needMore
            case .complete(let lineEnd, let nextLine): (end, next) = (lineEnd, nextLine)
            }
            guard let parsed = requestLine else {
                switch parseRequestLine(input, position, end) {
                case .success(let line): requestLine = line
                case .failure(let failure): return .invalid(failure)
                }
                headBytes = requestLine?.target.utf8.count ?? 0
                position = next
                continue
            }
            if end == position {
                guard framing.codingsAreValid else { return .invalid(HTTP1ParseFailure(.unsupportedTransferEncoding, at: position)) }
                let head = Head(method: parsed.method, target: parsed.target, minorVersion: parsed.minor, fields: fields,
                                framing: framing.framing)
                return .head(head, length: next)
            }
            guard fields.count < limits.maximumFieldCount else { return .invalid(HTTP1ParseFailure(.tooManyFields, at: position)) }
            switch Self.parseField(input, position, end, limits: limits) {
            case .failure(let failure): return .invalid(failure)
            case .success(let field):
                headBytes += end - position - 1
                guard headBytes <= limits.maximumHeadBytes else { return .invalid(HTTP1ParseFailure(.headTooLarge, at: position)) }
                if let failure = framing.read(field, at: position) { return .invalid(failure) }
                fields.append(field)
            }
            position = next
        }
    }

    private func parseRequestLine(_ input: HTTP1Input, _ start: Int, _ end: Int)
        -> Swift.Result<(method: String, target: String, minor: Int), HTTP1ParseFailure>
    {
        var position = start
        while position < end, input[position] != HTTP1Bytes.space { position += 1 }
        let methodEnd = position
        guard methodEnd > start, methodEnd < end else { return .failure(HTTP1ParseFailure(.badRequestLine, at: start)) }
        let method = input.string(start, methodEnd)
        guard Self.methods.contains(method) else { return .failure(HTTP1ParseFailure(.unknownMethod, at: start)) }
        while position < end, input[position] == HTTP1Bytes.space { position += 1 }
        let targetStart = position
        while position < end, input[position] != HTTP1Bytes.space {
            guard input[position] > 0x20, input[position] < 0x7F else { return .failure(HTTP1ParseFailure(.badTarget, at: position)) }
            position += 1
        }
        let targetEnd = position
        guard targetEnd > targetStart, targetEnd < end else { return .failure(HTTP1ParseFailure(.badRequestLine, at: targetStart)) }
        guard targetEnd - targetStart <= limits.maximumFieldSize else { return .failure(HTTP1ParseFailure(.fieldTooLarge, at: targetStart)) }
        while position < end, input[position] == HTTP1Bytes.space { position += 1 }
        guard end - position == 8, input.string(position, end - 1) == "HTTP/1." else {
            return .failure(HTTP1ParseFailure(.unsupportedVersion, at: position))
        }
        switch input[end - 1] {
        case UInt8(ascii: "0"): return .success((method, input.string(targetStart, targetEnd), 0))
        case UInt8(ascii: "1"): return .success((method, input.string(targetStart, targetEnd), 1))
        default: return .failure(HTTP1ParseFailure(.unsupportedVersion, at: end - 1))
        }
    }

    /// One field line (CRLF excluded): a token, a colon right after it, a value of field bytes.
    static func parseField(_ input: HTTP1Input, _ start: Int, _ end: Int, limits: Limits) -> Swift.Result<Field, HTTP1ParseFailure> {
        guard !HTTP1Bytes.isBlank(input[start]) else { return .failure(HTTP1ParseFailure(.obsoleteLineFolding, at: start)) }
        guard end - start - 1 <= limits.maximumFieldSize else { return .failure(HTTP1ParseFailure(.fieldTooLarge, at: start)) }
        var colon = start
        while colon < end, input[colon] != UInt8(ascii: ":") {
            guard HTTP1Bytes.isToken(input[colon]) else { return .failure(HTTP1ParseFailure(.badFieldName, at: colon)) }
            colon += 1
        }
        guard colon > start, colon < end else { return .failure(HTTP1ParseFailure(.badFieldName, at: colon)) }
        var valueStart = colon + 1
        var valueEnd = end
        for offset in valueStart..<valueEnd where !HTTP1Bytes.isFieldValue(input[offset]) {
            return .failure(HTTP1ParseFailure(.badFieldValue, at: offset))
        }
        while valueStart < valueEnd, HTTP1Bytes.isBlank(input[valueStart]) { valueStart += 1 }
        while valueEnd > valueStart, HTTP1Bytes.isBlank(input[valueEnd - 1]) { valueEnd -= 1 }
        return .success(Field(name: input.string(start, colon), value: input.string(valueStart, valueEnd)))
    }
}

/// The fields that frame a request's body, read as they come.
private struct FramingFields {
    private var contentLength: Int?
    private var codings: [String] = []

    var framing: HTTP1RequestHeadParser.Framing {
        if !codings.isEmpty { return .chunked }
        return contentLength.map { .contentLength($0) } ?? .none
    }

    mutating func read(_ field: HTTP1RequestHeadParser.Field, at offset: Int) -> HTTP1ParseFailure? {
        let name = field.name.utf8
        if name.count == 14, field.name.lowercased() == "content-length" {
            guard contentLength == nil else { return HTTP1ParseFailure(.repeatedContentLength, at: offset) }
            guard let length = Self.decimal(field.value) else { return HTTP1ParseFailure(.badContentLength, at: offset) }
            contentLength = length
        } else if name.count == 17, field.name.lowercased() == "transfer-encoding" {
            let added = field.value.split(separator: ",", omittingEmptySubsequences: false).map {
                $0.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()
            }
            for coding in added {
                let name = String(coding).lowercased()
                guard !name.isEmpty, name.utf8.allSatisfy(HTTP1Bytes.isToken) else {
                    return HTTP1ParseFailure(.unsupportedTransferEncoding, at: offset)
                }
                codings.append(name)
            }
        } else {
            return nil
        }
        // Whichever comes second is refused.
        if !codings.isEmpty, contentLength != nil { return HTTP1ParseFailure(.lengthWithTransferEncoding, at: offset) }
        return nil
    }

    /// Whether the codings end with `chunked`, named once: checked when the head ends.
    var codingsAreValid: Bool {
        codings.isEmpty || (codings.last == "chunked" && codings.filter { $0 == "chunked" }.count == 1)
    }

    /// `1*DIGIT`, within `Int`.
    private static func decimal(_ text: String) -> Int? {
        var scanner = ASCIIScanner(Array(text.utf8))
        guard let value = try? scanner.readNumber(), scanner.isAtEnd, value <= UInt64(Int.max) else { return nil }
        return Int(value)
    }
}
