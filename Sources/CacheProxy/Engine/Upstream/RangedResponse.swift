import CacheProxyParsing

/// An origin's answer to a GET with `Range`, checked against what was asked: a 206 for the
/// bytes asked for (or a wider span holding them), or a 200 with the whole body.
struct RangedResponse {
    var head: OriginResponseHead
    /// The resource offset of the body's first byte.
    var bodyStart: UInt64
    /// One past the last byte the body promises, when the origin said.
    var promisedEnd: UInt64?
    var body: OriginBody

    /// What an origin answered to a ranged GET.
    enum Answer {
        case bytes(RangedResponse)
        /// 416: the range starts at or past the end; the head carries the length.
        case pastEnd(OriginResponseHead)
    }

    /// The `Range` header for `start..<end` (to the end when `end` is `UInt64.max`).
    static func header(from start: UInt64, to end: UInt64) -> String {
        end == UInt64.max ? "bytes=\(start)-" : "bytes=\(start)-\(end - 1)"
    }

    /// Checks `response` against the range asked for (the verdict is ``RangedAnswer``'s, in
    /// CacheProxyParsing); statuses other than 200, 206 and 416 become
    /// ``UpstreamError/Code/status(_:)``.
    static func check(_ response: OriginResponse, origin: OriginURL, start: UInt64, rangeHeader: String) throws(UpstreamError) -> Answer {
        let head = try OriginResponseHead(status: response.status, headers: response.headers)
        switch RangedAnswer(status: head.status, contentRange: head.contentRange, contentLength: head.contentLength, start: start) {
        case .bytes(let bodyStart, let promisedEnd):
            return .bytes(RangedResponse(head: head, bodyStart: bodyStart, promisedEnd: promisedEnd, body: response.body))
        case .pastEnd:
            return .pastEnd(head)
        case .otherBytes:
            throw UpstreamError(.invalidResponse, "\(origin): a 206 for other bytes than \(rangeHeader)")
        case .status(let status):
            throw UpstreamError(.status(status), "\(origin): the origin answered \(status)")
        }
    }
}
