#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
    ///
    /// When the target spells `knownTarget`, the head's ``target`` is that string itself: a
    /// connection asks for one URL many times, and a new string per request is an allocation
    /// and a copy that comparing the bytes saves.
    public static func read(
        _ bytes: UnsafeRawBufferPointer, limit: Int = 8192, maximumFields: Int = 100, knownTarget: String? = nil
    ) -> Reading {
        // Every hit pays for this: lines are found with memchr and checked in tight loops over
        // the bytes, and field names told apart by their length before any comparison.
        let incomplete: Reading = bytes.count >= limit ? .notPlain : .needMore
        guard let base = bytes.baseAddress else { return incomplete }
        let end = min(bytes.count, limit)
        var fields = Fields()
        var requestLine: (method: String, target: String, minorVersion: Int)?
        var fieldCount = 0
        var lineStart = 0
        while lineStart < end {
            guard let found = memchr(base + lineStart, Int32(lf), end - lineStart) else { return incomplete }
            let index = base.distance(to: UnsafeRawPointer(found))
            guard index > lineStart, base.load(fromByteOffset: index - 1, as: UInt8.self) == cr else { return .notPlain }  // a bare LF
            let line = Line(base: base, start: lineStart, end: index - 1)
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
                guard let parsed = parseRequestLine(line, knownTarget: knownTarget) else { return .notPlain }
                requestLine = parsed
            }
            lineStart = index + 1
        }
        return incomplete
    }

    private static let cr = UInt8(ascii: "\r")
    private static let lf = UInt8(ascii: "\n")

    /// The bytes `start..<end` of a head, CRLF excluded.
    private struct Line {
        let base: UnsafeRawPointer
        let start: Int
        let end: Int

        var isEmpty: Bool { start == end }
        var count: Int { end - start }

        subscript(offset: Int) -> UInt8 { base.load(fromByteOffset: offset, as: UInt8.self) }

        func slice(_ from: Int, _ to: Int) -> Line { Line(base: base, start: from, end: to) }

        /// The offset of the first `byte`, or nil.
        func firstIndex(of byte: UInt8, from: Int? = nil) -> Int? {
            let from = from ?? start
            guard from < end, let found = memchr(base + from, Int32(byte), end - from) else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        }

        /// Whether every byte passes `test`.
        func all(_ test: (UInt8) -> Bool) -> Bool {
            for offset in start..<end where !test(self[offset]) { return false }
            return true
        }

        /// Whether every byte lies in `lowest..<lowest + span`, or is a tab when `tabs`: sixteen
        /// bytes at a time, as a player's target is a hundred bytes or more.
        func allWithin(_ lowest: UInt8, span: UInt8, orTab tabs: Bool = false) -> Bool {
            let low = SIMD16<UInt8>(repeating: lowest), width = SIMD16<UInt8>(repeating: span)
            let tab = SIMD16<UInt8>(repeating: 0x09)
            var offset = start
            while end - offset >= 16 {
                let chunk = base.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
                var passes = (chunk &- low) .< width
                if tabs { passes .|= chunk .== tab }
                guard Swift.all(passes) else { return false }
                offset += 16
            }
            while offset < end {
                let byte = self[offset]
                guard byte &- lowest < span || (tabs && byte == 0x09) else { return false }
                offset += 1
            }
            return true
        }

        /// Whether the bytes spell `word`, exactly or (`word` in lower case) in any ASCII case.
        func spells(_ word: StaticString, ignoringCase: Bool = true) -> Bool {
            guard count == word.utf8CodeUnitCount else { return false }
            let wanted = word.utf8Start
            for offset in 0..<count {
                let byte = self[start + offset]
                let folded = ignoringCase && byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
                guard folded == wanted[offset] else { return false }
            }
            return true
        }

        /// Without spaces and tabs at either end.
        func trimmed() -> Line {
            var from = start
            var to = end
            while from < to, self[from] == 0x20 || self[from] == 0x09 { from += 1 }
            while to > from, self[to - 1] == 0x20 || self[to - 1] == 0x09 { to -= 1 }
            return slice(from, to)
        }

        var string: String { String(decoding: UnsafeRawBufferPointer(start: base + start, count: count), as: UTF8.self) }

        /// ``string``, or `known` when it spells the same bytes.
        func string(reusing known: String?) -> String {
            guard let known, known.utf8.count == count,
                  known.utf8.withContiguousStorageIfAvailable({ $0.baseAddress.map { memcmp($0, base + start, count) == 0 } }) == true
            else { return string }
            return known
        }
    }

    private static func parseRequestLine(_ line: Line, knownTarget: String?) -> (String, String, Int)? {
        guard let firstSpace = line.firstIndex(of: UInt8(ascii: " ")),
              let secondSpace = line.firstIndex(of: UInt8(ascii: " "), from: firstSpace + 1)
        else { return nil }
        let method = line.slice(line.start, firstSpace)
        let target = line.slice(firstSpace + 1, secondSpace)
        let version = line.slice(secondSpace + 1, line.end)
        guard !method.isEmpty, method.all(HTTP1Bytes.isToken), !target.isEmpty, target.allWithin(0x21, span: 0x5E),
              version.count == 8, version.slice(version.start, version.end - 1).spells("HTTP/1.", ignoringCase: false)
        else { return nil }
        let minor = version[version.end - 1]
        guard minor == UInt8(ascii: "0") || minor == UInt8(ascii: "1") else { return nil }
        return (method.string, target.string(reusing: knownTarget), Int(minor - UInt8(ascii: "0")))
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
        mutating func read(_ line: Line) -> Bool {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.start else { return false }
            let name = line.slice(line.start, colon)
            let rawValue = line.slice(colon + 1, line.end)
            // Visible ASCII, space or tab.
            guard name.all(HTTP1Bytes.isToken), rawValue.allWithin(0x20, span: 0x5F, orTab: true) else { return false }
            let value = rawValue.trimmed()
            switch name.count {
            case 4 where name.spells("host"):
                guard host == nil else { return false }
                host = value.string
            case 5 where name.spells("range"):
                guard range == nil else { return false }
                range = value.string
            case 6 where name.spells("origin"):
                guard origin == nil else { return false }
                origin = value.string
            case 8 where name.spells("if-range"):
                guard ifRange == nil else { return false }
                ifRange = value.string
            case 10 where name.spells("connection"):
                guard connection == nil else { return false }
                if value.spells("close") {
                    connection = .close
                } else if value.spells("keep-alive") {
                    connection = .keepAlive
                } else {
                    return false
                }
            case 14 where name.spells("content-length"):
                guard !sawContentLength, value.spells("0", ignoringCase: false) else { return false }
                sawContentLength = true
            case 6 where name.spells("expect"), 7 where name.spells("upgrade"), 17 where name.spells("transfer-encoding"):
                return false
            default:
                break
            }
            return true
        }
    }
}
