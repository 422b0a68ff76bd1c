/// What an origin's answer to a GET with `Range` (from byte `start`) gives the proxy, decided
/// from its status and head alone: the bytes asked for (a 206 for them or for a wider span
/// holding them, or a 200 with the whole body), the end of the resource (416), or an answer
/// that cannot be used.
package enum RangedAnswer: Sendable, Hashable {
    /// A body to read: its first byte is resource byte `bodyStart`, and it promises the bytes
    /// up to `promisedEnd` (exclusive) when the origin said how many.
    case bytes(bodyStart: UInt64, promisedEnd: UInt64?)
    /// 416: the range starts at or past the end; the head's `Content-Range` carries the length.
    case pastEnd
    /// A 206 whose `Content-Range` is missing, does not hold `start`, or ends at byte 2^64-1
    /// (the end of such a body is no 64-bit offset).
    case otherBytes
    /// Any status other than 200, 206 and 416.
    case status(Int)

    /// Judges a response head (its status, `Content-Range` and `Content-Length`, as
    /// ``OriginResponseFields`` reads them) as the answer to a request for the bytes from `start`.
    package init(status: Int, contentRange: ContentRange?, contentLength: UInt64?, start: UInt64) {
        switch status {
        case 206:
            guard let range = contentRange?.range, range.lowerBound <= start, range.upperBound >= start,
                  range.upperBound < UInt64.max else {
                self = .otherBytes
                return
            }
            self = .bytes(bodyStart: range.lowerBound, promisedEnd: range.upperBound + 1)
        case 200:
            self = .bytes(bodyStart: 0, promisedEnd: contentLength)
        case 416:
            self = .pastEnd
        default:
            self = .status(status)
        }
    }
}
