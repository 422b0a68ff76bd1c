import CacheProxyParsing
import Testing

/// The proxy's HTTP/1.1 request head parser: what RFC 9112 allows is read, what two parsers
/// could read differently is refused, limits hold as the bytes arrive.
@Suite("HTTP/1 request head parser")
struct HTTP1RequestHeadParserTests {
    static let limits = HTTP1RequestHeadParser.Limits(maximumFieldSize: 16_416, maximumHeadBytes: 32 * 1024, maximumFieldCount: 100)
    static let parser = HTTP1RequestHeadParser(limits: limits)

    static func parse(_ text: String, parser: HTTP1RequestHeadParser = parser) -> HTTP1RequestHeadParser.Result {
        parse(Array(text.utf8), parser: parser)
    }

    static func parse(_ bytes: [UInt8], parser: HTTP1RequestHeadParser = parser) -> HTTP1RequestHeadParser.Result {
        bytes.withUnsafeBytes { parser.parse($0) }
    }

    static func reason(_ result: HTTP1RequestHeadParser.Result) -> HTTP1ParseFailure.Reason? {
        if case .invalid(let failure) = result { return failure.reason }
        return nil
    }

    @Test("A head is read with its fields in order, values trimmed, and its length; the body after it is not")
    func readsAHead() throws {
        let text = "POST /sessions HTTP/1.1\r\nHost: 127.0.0.1:9000\r\nX-Empty:\r\nContent-Length:  2 \r\nX-Tab:\tcaf\u{e9}\t\r\n\r\n{}"
        guard case .head(let head, let length) = Self.parse(text) else { Issue.record("not a head"); return }
        #expect(head.method == "POST" && head.target == "/sessions" && head.minorVersion == 1)
        #expect(head.fields.map(\.name) == ["Host", "X-Empty", "Content-Length", "X-Tab"])
        #expect(head.fields.map(\.value) == ["127.0.0.1:9000", "", "2", "caf\u{e9}"])
        #expect(head.framing == .contentLength(2))
        #expect(length == text.utf8.count - 2)
    }

    @Test("What RFC 9112 allows is read: empty lines before the request line, several spaces between its parts, HTTP/1.0, registered methods")
    func leniencies() {
        for text in ["\r\n\r\nGET / HTTP/1.1\r\n\r\n", "GET   /a   HTTP/1.0\r\n\r\n", "PROPFIND /x HTTP/1.1\r\n\r\n", "M-SEARCH * HTTP/1.1\r\n\r\n"] {
            guard case .head(_, let length) = Self.parse(text) else { Issue.record("refused: \(text.debugDescription)"); continue }
            #expect(length == text.utf8.count)
        }
    }

    @Test("Every prefix of a head asks for more bytes")
    func prefixesNeedMore() {
        let bytes = Array("\r\nGET /proxy?url=x HTTP/1.1\r\nHost: a\r\nRange: bytes=0-1\r\n\r\n".utf8)
        for cut in 0..<bytes.count {
            #expect(Self.parse(Array(bytes[..<cut])) == .needMore, "\(cut) bytes")
        }
    }

    static let refused: [(String, HTTP1ParseFailure.Reason)] = [
        ("GET / HTTP/1.1\nHost: a\r\n\r\n", .bareLineEnd),
        ("GET / HTTP/1.1\r\nHost: a\n\r\n", .bareLineEnd),
        ("GET / HTTP/1.1\r\nX: a\rb\r\n\r\n", .bareLineEnd),
        ("get / HTTP/1.1\r\n\r\n", .unknownMethod),
        ("FOO / HTTP/1.1\r\n\r\n", .unknownMethod),
        ("GET /caf\u{e9} HTTP/1.1\r\n\r\n", .badTarget),
        ("GET /a\u{7f} HTTP/1.1\r\n\r\n", .badTarget),
        ("GET / HTTP/1.2\r\n\r\n", .unsupportedVersion),
        ("GET / HTTP/2.0\r\n\r\n", .unsupportedVersion),
        ("GET / http/1.1\r\n\r\n", .unsupportedVersion),
        ("GET / HTTP/1.1 \r\n\r\n", .unsupportedVersion),
        ("GET /\r\n\r\n", .badRequestLine),
        ("GET\r\n\r\n", .badRequestLine),
        ("GET / HTTP/1.1\r\nHost : a\r\n\r\n", .badFieldName),
        ("GET / HTTP/1.1\r\n: a\r\n\r\n", .badFieldName),
        ("GET / HTTP/1.1\r\nNo colon\r\n\r\n", .badFieldName),
        ("GET / HTTP/1.1\r\nX: a\r\n b\r\n\r\n", .obsoleteLineFolding),
        ("GET / HTTP/1.1\r\nX: a\u{0}b\r\n\r\n", .badFieldValue),
        ("GET / HTTP/1.1\r\nX: a\u{7f}\r\n\r\n", .badFieldValue),
        ("POST / HTTP/1.1\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n", .lengthWithTransferEncoding),
        ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n", .lengthWithTransferEncoding),
        ("POST / HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n", .repeatedContentLength),
        ("POST / HTTP/1.1\r\nContent-Length: 2, 2\r\n\r\n", .badContentLength),
        ("POST / HTTP/1.1\r\nContent-Length: +2\r\n\r\n", .badContentLength),
        ("POST / HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n", .badContentLength),
        ("POST / HTTP/1.1\r\nContent-Length:\r\n\r\n", .badContentLength),
        ("POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", .unsupportedTransferEncoding),
        ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked, gzip\r\n\r\n", .unsupportedTransferEncoding),
        ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n", .unsupportedTransferEncoding),
        ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked,\r\n\r\n", .unsupportedTransferEncoding),
    ]

    @Test("Ambiguous framing and broken syntax are refused, each for its reason", arguments: refused.indices)
    func refusals(_ index: Int) {
        let (text, reason) = Self.refused[index]
        #expect(Self.reason(Self.parse(text)) == reason, "\(text.debugDescription)")
    }

    @Test("A failure in a line is found before the head ends: a bare LF, a bare CR, a line folded, too long a line")
    func failuresAreFoundEarly() {
        #expect(Self.reason(Self.parse("GET / HTTP/1.1\nHo")) == .bareLineEnd)
        #expect(Self.reason(Self.parse("GET / HTTP/1.1\r\nX: a\rb")) == .bareLineEnd)
        #expect(Self.reason(Self.parse("GET / HTTP/1.1\r\nX: a\r\n b")) == .obsoleteLineFolding)
        #expect(Self.reason(Self.parse("GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 17_000))) == .fieldTooLarge)
        #expect(Self.reason(Self.parse("GET /" + String(repeating: "a", count: 17_000))) == .fieldTooLarge)
    }

    @Test("Framing: none, a length, chunked when the codings end with it (on HTTP/1.0 too)")
    func framing() {
        func framing(_ fields: String, version: String = "1.1") -> HTTP1RequestHeadParser.Framing? {
            guard case .head(let head, _) = Self.parse("POST / HTTP/\(version)\r\n\(fields)\r\n") else { return nil }
            return head.framing
        }
        #expect(framing("") == HTTP1RequestHeadParser.Framing.none)
        #expect(framing("Content-Length: 0\r\n") == .contentLength(0))
        #expect(framing("content-length: 9223372036854775807\r\n") == .contentLength(Int.max))
        #expect(framing("Transfer-Encoding: gzip, Chunked\r\n") == .chunked)
        #expect(framing("Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n") == .chunked)
        #expect(framing("Transfer-Encoding: chunked\r\n", version: "1.0") == .chunked)
    }

    @Test("Limits hold at their bounds: fields counted, field size, the head's bytes")
    func limits() {
        func fields(_ count: Int, size: Int) -> String {
            "GET / HTTP/1.1\r\n" + (0..<count).map { "X-\($0): " + String(repeating: "v", count: size) + "\r\n" }.joined() + "\r\n"
        }
        #expect(Self.reason(Self.parse(fields(100, size: 1))) == nil)
        #expect(Self.reason(Self.parse(fields(101, size: 1))) == .tooManyFields)
        #expect(Self.reason(Self.parse(fields(3, size: 10_000))) == nil)
        #expect(Self.reason(Self.parse(fields(4, size: 10_000))) == .headTooLarge)
        #expect(Self.reason(Self.parse(fields(1, size: 16_000))) == nil)
        #expect(Self.reason(Self.parse(fields(1, size: 16_500))) == .fieldTooLarge)
        #expect(Self.reason(Self.parse("GET /" + String(repeating: "a", count: 16_500) + " HTTP/1.1\r\n\r\n")) == .fieldTooLarge)
    }

    @Test("Empty lines before the request line count toward the head's limit: an endless run of them is refused")
    func leadingEmptyLinesAreBounded() {
        let flood = String(repeating: "\r\n", count: 20_000)
        #expect(Self.reason(Self.parse(flood)) == .headTooLarge)
        #expect(Self.reason(Self.parse(String(repeating: "\r\n", count: 100) + "GET / HTTP/1.1\r\n\r\n")) == nil)
    }

    @Test("Limits of Int.max mean no limit, without overflow")
    func unlimited() {
        let parser = HTTP1RequestHeadParser(limits: .init(maximumFieldSize: .max, maximumHeadBytes: .max, maximumFieldCount: .max))
        #expect(Self.parse("GET / HTTP/1.1\r\nX: " + String(repeating: "v", count: 70_000) + "\r\n\r\n", parser: parser) != .needMore)
        #expect(Self.parse("GET / HTTP/1.1\r\nX: v", parser: parser) == .needMore)
        var decoder = ChunkedBodyDecoder(limits: parser.limits)
        #expect(Array("5\r\nhello\r\n0\r\n\r\n".utf8).withUnsafeBytes { decoder.decode($0) } == .data(3..<8, consumed: 8))
    }

    @Test("A plain head the raw hit path reads is read the same: method, target, version and length")
    func agreesWithTheRawHitPath() {
        for text in ["GET /proxy?url=http%3A%2F%2Fa%2Fb.ts HTTP/1.1\r\nHost: 127.0.0.1:9000\r\nRange: bytes=0-99\r\n\r\n",
                     "HEAD /x HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /y HTTP/1.1\r\n\r\n"] {
            let bytes = Array(text.utf8)
            guard case .head(let raw, let rawLength) = bytes.withUnsafeBytes({ RawRequestHead.read($0) }),
                  case .head(let head, let length) = Self.parse(bytes) else { Issue.record("not read: \(text.debugDescription)"); continue }
            #expect(head.method == raw.method && head.target == raw.target && head.minorVersion == raw.minorVersion)
            #expect(length == rawLength)
        }
    }
}
