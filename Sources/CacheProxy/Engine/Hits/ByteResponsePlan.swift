import CacheProxyParsing
import NIOCore
import SparseFile

/// The answer to a byte request once the representation's length is known: the status, the
/// headers and the bytes of the body. Both the asynchronous responder and the event-loop
/// cache-hit path build their responses from it, so they cannot disagree.
struct ByteResponsePlan {
    let facts: EntryFacts
    /// The body's length, the `Content-Length` (a HEAD response's too).
    let contentLength: UInt64
    /// The bytes a 206 carries, for its `Content-Range`, and the representation's length.
    let partial: (range: Range<UInt64>, length: UInt64)?
    /// The body's bytes; nil for a HEAD request or an empty body.
    let body: ByteRange?

    /// Plans the response to `range` (nil: the whole representation) of a representation the
    /// cache knows `facts` about.
    ///
    /// - Throws: ``UnsatisfiableRange`` for a range that cannot be satisfied.
    init(facts: EntryFacts, length: UInt64, range: RangeSpecifier?, isHead: Bool) throws(UnsatisfiableRange) {
        let selected: Range<UInt64>
        if let range {
            guard let resolved = range.resolve(length: length) else { throw UnsatisfiableRange(length: length) }
            selected = resolved
            partial = (resolved, length)
        } else {
            selected = 0..<length
            partial = nil
        }
        self.facts = facts
        contentLength = UInt64(selected.count)
        body = isHead || selected.isEmpty ? nil : ByteRange(from: selected.lowerBound, to: selected.upperBound)
    }

    /// 200, or 206 for a range.
    var status: ResponseStatus { partial == nil ? .ok : .partialContent }

    /// The response's headers: the representation's, `Content-Length`, and `Content-Range` for a 206.
    var headers: HeaderFields {
        var headers = Self.headers(facts, length: contentLength)
        if let partial { headers.add(name: "Content-Range", value: Self.contentRange(partial.range, length: partial.length)) }
        return headers
    }

    /// The most bytes ``writeHead(version:headerLines:connection:into:)`` writes: its fixed
    /// text, with room to spare, and four numbers of their most digits.
    static func headCapacity(headerLines: [UInt8], connection: String?) -> Int {
        192 + 4 * DecimalDigits.maximumCount + headerLines.count + (connection?.utf8.count ?? 0)
    }

    /// Writes the response head as the HTTP/1 codec's encoder would write one with ``headers`` and then
    /// `Connection: connection`: status line, header fields, empty line. A hit answered from
    /// the raw request bytes writes its head so, without building the headers first;
    /// `headerLines` are the facts' ``EntryFacts/representationHeaderLines()``, made once per entry.
    func writeHead(version: ProtocolVersion, headerLines: [UInt8], connection: String?, into buffer: inout ByteBuffer) {
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: Self.headCapacity(headerLines: headerLines, connection: connection)) { raw in
            var head = HeadWriter(into: raw.bindMemory(to: UInt8.self))
            head.append(version.minor == 0 ? "HTTP/1.0 " : "HTTP/1.1 ")
            head.append(partial == nil ? "200 OK\r\n" : "206 Partial Content\r\n")
            head.append(headerLines)
            head.append("Content-Length: ")
            head.append(decimal: contentLength)
            if let partial {
                head.append("\r\nContent-Range: bytes ")
                head.append(decimal: partial.range.lowerBound)
                head.append("-")
                head.append(decimal: partial.range.upperBound - 1)
                head.append("/")
                head.append(decimal: partial.length)
            }
            if let connection {
                head.append("\r\nConnection: ")
                head.append(utf8: connection)
            }
            head.append("\r\n\r\n")
            return head.count
        }
    }

    /// `bytes first-last/length`, written digit by digit into one allocation: every range
    /// response carries one, and string interpolation grows its buffer several times.
    static func contentRange(_ range: Range<UInt64>, length: UInt64) -> String {
        String(unsafeUninitializedCapacity: 6 + 3 * DecimalDigits.maximumCount + 2) { buffer in
            var text = HeadWriter(into: buffer)
            text.append("bytes ")
            text.append(decimal: range.lowerBound)
            text.append("-")
            text.append(decimal: range.upperBound - 1)
            text.append("/")
            text.append(decimal: length)
            return text.count
        }
    }

    /// The headers of a byte response: the origin's type and validators, and the length when known.
    static func headers(_ facts: EntryFacts, length: UInt64?) -> HeaderFields {
        var headers = facts.representationHeaders
        if let length { headers.add(name: "Content-Length", value: String(length)) }
        return headers
    }

    /// The range to serve: one valid range, or nil for the whole representation (no `Range`,
    /// several ranges, a header that does not parse, or an `If-Range` that does not match).
    static func requestedRange(_ headers: HeaderFields, facts: EntryFacts, limits: RangeRequestLimits) -> RangeSpecifier? {
        requestedRange(range: headers.first(name: "range"), ifRange: headers.first(name: "if-range"), facts: facts, limits: limits)
    }

    /// The same, from the values of the `Range` and `If-Range` headers.
    static func requestedRange(range: String?, ifRange: String?, facts: EntryFacts, limits: RangeRequestLimits) -> RangeSpecifier? {
        guard let range, case .single(let specifier)? = try? RangeRequest(parsing: range, limits: limits) else { return nil }
        if let ifRange, !facts.matches(ifRange: ifRange) { return nil }
        return specifier
    }
}
