import CacheProxyParsing
import NIOHTTP1
import SparseFile

/// The answer to a byte request once the representation's length is known: the status, the
/// headers and the bytes of the body. Both the asynchronous responder and the event-loop
/// cache-hit path build their responses from it, so they cannot disagree.
struct ByteResponsePlan {
    var status: HTTPResponseStatus
    var headers: HTTPHeaders
    /// The body's bytes; nil for a HEAD request or an empty body.
    var body: ByteRange?

    /// Plans the response to `range` (nil: the whole representation) of a representation the
    /// cache knows `facts` about.
    ///
    /// - Throws: ``ProxyFailure`` 416 with `Content-Range: bytes */length` for a range that
    ///   cannot be satisfied.
    init(facts: EntryFacts, length: UInt64, range: RangeSpecifier?, isHead: Bool) throws(ProxyFailure) {
        let selected: Range<UInt64>
        if let range {
            guard let resolved = range.resolve(length: length) else {
                var headers = HTTPHeaders()
                headers.add(name: "Content-Range", value: "bytes */\(length)")
                headers.add(name: "Accept-Ranges", value: "bytes")
                throw ProxyFailure(status: 416, "range not satisfiable for a length of \(length)", headers: headers)
            }
            status = .partialContent
            selected = resolved
        } else {
            status = .ok
            selected = 0..<length
        }
        headers = Self.headers(facts, length: UInt64(selected.count))
        if status == .partialContent {
            headers.add(name: "Content-Range", value: Self.contentRange(selected, length: length))
        }
        body = isHead || selected.isEmpty ? nil : ByteRange(from: selected.lowerBound, to: selected.upperBound)
    }

    /// `bytes first-last/length`, written digit by digit into one allocation: every range
    /// response carries one, and string interpolation grows its buffer several times.
    static func contentRange(_ range: Range<UInt64>, length: UInt64) -> String {
        String(unsafeUninitializedCapacity: 6 + 3 * 20 + 2) { buffer in
            var count = 0
            func append(_ text: StaticString) {
                for byte in UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount) {
                    buffer[count] = byte
                    count += 1
                }
            }
            func append(_ number: UInt64) {
                let start = count
                var rest = number
                repeat {
                    buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                    count += 1
                    rest /= 10
                } while rest > 0
                buffer[start..<count].reverse()
            }
            append("bytes ")
            append(range.lowerBound)
            append("-")
            append(range.upperBound - 1)
            append("/")
            append(length)
            return count
        }
    }

    /// The headers of a byte response: the origin's type and validators, and the length when known.
    static func headers(_ facts: EntryFacts, length: UInt64?) -> HTTPHeaders {
        var headers = facts.representationHeaders
        if let length { headers.add(name: "Content-Length", value: String(length)) }
        return headers
    }

    /// The range to serve: one valid range, or nil for the whole representation (no `Range`,
    /// several ranges, a header that does not parse, or an `If-Range` that does not match).
    static func requestedRange(_ headers: HTTPHeaders, facts: EntryFacts, limits: RangeRequestLimits) -> RangeSpecifier? {
        requestedRange(range: headers.first(name: "range"), ifRange: headers.first(name: "if-range"), facts: facts, limits: limits)
    }

    /// The same, from the values of the `Range` and `If-Range` headers.
    static func requestedRange(range: String?, ifRange: String?, facts: EntryFacts, limits: RangeRequestLimits) -> RangeSpecifier? {
        guard let range, case .single(let specifier)? = try? RangeRequest(parsing: range.utf8, limits: limits) else { return nil }
        if let ifRange, !facts.matches(ifRange: ifRange) { return nil }
        return specifier
    }
}
