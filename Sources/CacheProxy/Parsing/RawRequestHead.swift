/// A request head read straight from a connection's bytes, for the proxy's fast path of cache
/// hits. Only the plain form that players send is read: a request line of a token method, a
/// target of visible ASCII and `HTTP/1.0` or `HTTP/1.1`; header lines of a token name and a value
/// of visible ASCII, spaces and tabs; CRLF line ends; no body (no `Transfer-Encoding`, a
/// `Content-Length` of 0 at most), no `Expect` or `Upgrade`, at most one `Range`, `If-Range`,
/// `Connection`, `Host` and `Origin`. Anything else is `notPlain`: it is left to a full HTTP/1.1
/// parser.
///
/// ```swift
/// switch RawRequestHead.read(bytes) {
/// case .head(let head, let length): …   // a whole head of `length` bytes
/// case .needMore: …                     // wait for more bytes
/// case .notPlain: …                     // hand the connection to the full parser
/// }
/// ```
public struct RawRequestHead: Sendable, Hashable {
    /// What a `Connection` header asked for.
    public enum ConnectionOption: Sendable, Hashable {
        case unspecified, close, keepAlive
    }

    /// What reading found at the start of the bytes.
    public enum Reading: Sendable, Hashable {
        /// A whole plain head, `length` bytes including its final empty line.
        case head(RawRequestHead, length: Int)
        /// No end of the head yet, and nothing that is not plain so far.
        case needMore
        /// Not the plain form, or longer than the limit.
        case notPlain
    }

    public let method: String
    public let target: String
    /// 0 for HTTP/1.0, 1 for HTTP/1.1.
    public let minorVersion: Int
    public let range: String?
    public let ifRange: String?
    public let connection: ConnectionOption
    /// The `Host` the client named the proxy by (checked against DNS rebinding).
    public let host: String?
    /// The `Origin` of the page that sent the request, if a browser did.
    public let origin: String?

    /// Whether the connection stays open after the response (RFC 9112 section 9.3).
    public var keepAlive: Bool {
        switch connection {
        case .close: false
        case .keepAlive: true
        case .unspecified: minorVersion == 1
        }
    }

    /// Reads the head at the start of `bytes`; a head longer than `limit` bytes, or more than
    /// `maximumFields` header fields, is `notPlain`. Each line is checked as soon as it ends, so
    /// bytes that are not plain are known to be so without waiting for the end of the head.
    public static func read(_ bytes: UnsafeRawBufferPointer, limit: Int = 8192, maximumFields: Int = 100) -> Reading {
        var fields = Fields()
        var requestLine: (method: String, target: String, minorVersion: Int)?
        var fieldCount = 0
        var lineStart = 0
        var index = 0
        while index < bytes.count {
            guard index < limit else { return .notPlain }
            if bytes[index] == lf {
                guard index > lineStart, bytes[index - 1] == cr else { return .notPlain }  // a bare LF
                let line = bytes[lineStart..<index - 1]
                if let (method, target, minorVersion) = requestLine {
                    if line.isEmpty {
                        return .head(RawRequestHead(method: method, target: target, minorVersion: minorVersion, range: fields.range,
                                                    ifRange: fields.ifRange, connection: fields.connection ?? .unspecified,
                                                    host: fields.host, origin: fields.origin),
                                     length: index + 1)
                    }
                    fieldCount += 1
                    guard fieldCount <= maximumFields, fields.read(line) else { return .notPlain }
                } else {
                    guard let parsed = parseRequestLine(line) else { return .notPlain }
                    requestLine = parsed
                }
                lineStart = index + 1
            }
            index += 1
        }
        return bytes.count >= limit ? .notPlain : .needMore
    }

    private static let cr = UInt8(ascii: "\r")
    private static let lf = UInt8(ascii: "\n")
    private static let tokenSymbols = Array("!#$%&'*+-.^_`|~".utf8)

    private static func parseRequestLine(_ line: Slice<UnsafeRawBufferPointer>) -> (String, String, Int)? {
        guard let firstSpace = firstIndex(of: UInt8(ascii: " "), in: line),
              let secondSpace = firstIndex(of: UInt8(ascii: " "), in: line[(firstSpace + 1)...])
        else { return nil }
        let method = line[..<firstSpace]
        let target = line[(firstSpace + 1)..<secondSpace]
        let version = line[(secondSpace + 1)...]
        guard !method.isEmpty, method.allSatisfy(isTokenByte), !target.isEmpty, target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }),
              version.count == 8, matches(version.prefix(7), "HTTP/1.", ignoringCase: false), let minor = version.last,
              minor == UInt8(ascii: "0") || minor == UInt8(ascii: "1")
        else { return nil }
        return (String(decoding: method, as: UTF8.self), String(decoding: target, as: UTF8.self), Int(minor - UInt8(ascii: "0")))
    }

    /// The header fields that matter, read one line at a time.
    private struct Fields {
        var range: String?
        var ifRange: String?
        var connection: ConnectionOption?
        var host: String?
        var origin: String?
        var sawContentLength = false

        /// Reads one field line; false when it is not plain.
        mutating func read(_ line: Slice<UnsafeRawBufferPointer>) -> Bool {
            guard let colon = RawRequestHead.firstIndex(of: UInt8(ascii: ":"), in: line), colon > line.startIndex else { return false }
            let name = line[..<colon]
            let rawValue = line[(colon + 1)...]
            guard name.allSatisfy(RawRequestHead.isTokenByte),
                  rawValue.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x09 })
            else { return false }
            let value = RawRequestHead.trimmed(rawValue)
            if RawRequestHead.equalsIgnoringCase(name, "range") {
                guard range == nil else { return false }
                range = String(decoding: value, as: UTF8.self)
            } else if RawRequestHead.equalsIgnoringCase(name, "if-range") {
                guard ifRange == nil else { return false }
                ifRange = String(decoding: value, as: UTF8.self)
            } else if RawRequestHead.equalsIgnoringCase(name, "host") {
                guard host == nil else { return false }
                host = String(decoding: value, as: UTF8.self)
            } else if RawRequestHead.equalsIgnoringCase(name, "origin") {
                guard origin == nil else { return false }
                origin = String(decoding: value, as: UTF8.self)
            } else if RawRequestHead.equalsIgnoringCase(name, "connection") {
                guard connection == nil else { return false }
                if RawRequestHead.equalsIgnoringCase(value, "close") {
                    connection = .close
                } else if RawRequestHead.equalsIgnoringCase(value, "keep-alive") {
                    connection = .keepAlive
                } else {
                    return false
                }
            } else if RawRequestHead.equalsIgnoringCase(name, "content-length") {
                guard !sawContentLength, value.elementsEqual("0".utf8) else { return false }
                sawContentLength = true
            } else if RawRequestHead.equalsIgnoringCase(name, "transfer-encoding") || RawRequestHead.equalsIgnoringCase(name, "expect")
                        || RawRequestHead.equalsIgnoringCase(name, "upgrade") {
                return false
            }
            return true
        }
    }

    /// RFC 9110 `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            tokenSymbols.contains(byte)
        }
    }

    /// Whether `bytes` spell `word` (lower case) in any ASCII case.
    private static func equalsIgnoringCase(_ bytes: Slice<UnsafeRawBufferPointer>, _ word: StaticString) -> Bool {
        matches(bytes, word, ignoringCase: true)
    }

    /// Whether `bytes` spell `word`, exactly or (`word` in lower case) in any ASCII case. Byte
    /// loops over the buffer: the generic `Sequence` algorithms cost a good part of a hit here.
    private static func matches(_ bytes: Slice<UnsafeRawBufferPointer>, _ word: StaticString, ignoringCase: Bool) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        let wanted = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        var offset = 0
        for byte in bytes {
            let folded = ignoringCase && byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
            guard folded == wanted[offset] else { return false }
            offset += 1
        }
        return true
    }

    /// The index of the first `byte` in `bytes`.
    private static func firstIndex(of byte: UInt8, in bytes: Slice<UnsafeRawBufferPointer>) -> Int? {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes.base[index] == byte { return index }
            index += 1
        }
        return nil
    }

    private static func trimmed(_ value: Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer> {
        var value = value
        while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
        while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
        return value
    }
}
