#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes an HTTP/1 parser reads, with the searches it makes (memchr: a field line can be
/// kilobytes long).
struct HTTP1Input {
    let bytes: UnsafeRawBufferPointer

    var count: Int { bytes.count }

    subscript(offset: Int) -> UInt8 { bytes[offset] }

    /// The offset of the first LF at or after `start` and before `end`, or nil.
    func lineFeed(from start: Int, before end: Int) -> Int? {
        firstIndex(of: HTTP1Bytes.lf, from: start, before: end)
    }

    /// The offset of the first CR at or after `start` and before `end`, or nil.
    func carriageReturn(from start: Int, before end: Int) -> Int? {
        firstIndex(of: HTTP1Bytes.cr, from: start, before: end)
    }

    enum Line {
        /// No line end yet, and nothing wrong so far.
        case incomplete
        /// The line's content ends at `end` (its CR); the next line starts at `next`.
        case complete(end: Int, next: Int)
        case invalid(HTTP1ParseFailure)
    }

    /// The CRLF-ended line at `start`, of at most `limit` bytes before its LF. A line longer,
    /// or with a bare CR or LF, is refused as soon as its bytes show it.
    func line(from start: Int, limit: Int) -> Line {
        guard let lineFeed = lineFeed(from: start, before: min(count, start + limit + 1)) else {
            if count - start > limit { return .invalid(HTTP1ParseFailure(.fieldTooLarge, at: start)) }
            // A CR may be the line's last byte so far, its LF on its way.
            if let bare = carriageReturn(from: start, before: count - 1) { return .invalid(HTTP1ParseFailure(.bareLineEnd, at: bare)) }
            return .incomplete
        }
        guard lineFeed > start, self[lineFeed - 1] == HTTP1Bytes.cr else { return .invalid(HTTP1ParseFailure(.bareLineEnd, at: lineFeed)) }
        if let bare = carriageReturn(from: start, before: lineFeed - 1) { return .invalid(HTTP1ParseFailure(.bareLineEnd, at: bare)) }
        return .complete(end: lineFeed - 1, next: lineFeed + 1)
    }

    func string(_ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    private func firstIndex(of byte: UInt8, from start: Int, before end: Int) -> Int? {
        guard start < end, let base = bytes.baseAddress, let found = memchr(base + start, Int32(byte), end - start) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }
}
