/// A `Content-Range` response header from an origin (RFC 9110 section 14.4), parsed.
///
/// Origins are untrusted too: the proxy checks that a 206 covers the bytes it asked for
/// before storing any of them.
public struct ContentRange: Sendable, Hashable {
    /// The bytes the response carries, `[first, last]`; nil for `bytes */length` (a 416).
    public var range: ClosedRange<UInt64>?
    /// The complete length, when the origin knows it (`*` otherwise).
    public var completeLength: UInt64?

    public init(range: ClosedRange<UInt64>?, completeLength: UInt64?) {
        self.range = range
        self.completeLength = completeLength
    }

    /// Parses `bytes 0-99/1000`, `bytes 0-99/*` or `bytes */1000`.
    ///
    /// - Throws: ``ParseError`` when the value is longer than 256 bytes, uses another unit, has a
    ///   last position before the first or at or past the complete length, or is malformed.
    public init(parsing value: some Collection<UInt8>) throws(ParseError) {
        guard value.count <= 256 else { throw ParseError(.tooLong, "Content-Range longer than 256 bytes") }
        var scanner = ASCIIScanner(Array(value))
        scanner.skipWhitespace()
        guard scanner.consumeCaseInsensitive("bytes"), scanner.consume(UInt8(ascii: " ")) else {
            throw ParseError(.unsupported, "Content-Range unit is not bytes")
        }
        scanner.skipWhitespace()
        if scanner.consume(UInt8(ascii: "*")) {
            range = nil
        } else {
            guard let first = try scanner.readNumber(), scanner.consume(UInt8(ascii: "-")),
                  let last = try scanner.readNumber() else {
                throw ParseError(.malformed, "Content-Range without first-last")
            }
            guard first <= last else { throw ParseError(.malformed, "Content-Range \(first)-\(last) ends before it starts") }
            range = first...last
        }
        guard scanner.consume(UInt8(ascii: "/")) else { throw ParseError(.malformed, "Content-Range without '/'") }
        if scanner.consume(UInt8(ascii: "*")) {
            completeLength = nil
        } else {
            guard let length = try scanner.readNumber() else { throw ParseError(.malformed, "Content-Range without a length") }
            completeLength = length
        }
        scanner.skipWhitespace()
        guard scanner.isAtEnd else { throw ParseError(.malformed, "trailing bytes after Content-Range") }
        if let range, let completeLength, range.upperBound >= completeLength {
            throw ParseError(.malformed, "Content-Range ends past the complete length")
        }
        guard range != nil || completeLength != nil else { throw ParseError(.malformed, "Content-Range bytes */*") }
    }

    /// Parses a header value given as a string.
    public init(parsing value: String) throws(ParseError) {
        try self.init(parsing: Array(value.utf8))
    }
}
