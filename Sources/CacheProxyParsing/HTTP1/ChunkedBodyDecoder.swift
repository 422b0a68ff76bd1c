/// Reads a chunked request body (RFC 9112 section 7.1) as it arrives: the data of each chunk,
/// then the last chunk and its trailer fields, which are checked as header fields are and
/// dropped. Chunk extensions are skipped; a size line is bounded by the per-field limit, a
/// size must fit in `Int`, and every line must end with CRLF.
///
/// ```swift
/// var decoder = ChunkedBodyDecoder(limits: limits)
/// switch decoder.decode(bytes) {          // the bytes not consumed yet
/// case .data(let range, let consumed): …  // body bytes at `range` of `bytes`
/// case .needMore(let consumed): …         // wait for more
/// case .end(let consumed): …              // the body is whole
/// case .invalid(let failure): …
/// }
/// ```
public struct ChunkedBodyDecoder: Sendable {
    public enum Step: Sendable, Hashable {
        /// Body bytes at `range` of the input; `consumed` bytes of it are used up (the data and
        /// the framing before it).
        case data(Range<Int>, consumed: Int)
        /// Framing was read up to `consumed` (maybe none) and more bytes are needed.
        case needMore(consumed: Int)
        /// The last chunk and the trailer fields are read; `consumed` bytes used up.
        case end(consumed: Int)
        case invalid(HTTP1ParseFailure)
    }

    private enum State: Sendable {
        case size
        case data(remaining: Int)
        case dataEnd
        case trailers(count: Int, bytes: Int)
        case done
    }

    private let limits: HTTP1RequestHeadParser.Limits
    private var state = State.size

    public init(limits: HTTP1RequestHeadParser.Limits) {
        self.limits = limits
    }

    /// Decodes from the start of `bytes`, the bytes not consumed by earlier calls.
    public mutating func decode(_ bytes: UnsafeRawBufferPointer) -> Step {
        let input = HTTP1Input(bytes: bytes)
        var position = 0
        while true {
            switch state {
            case .done:
                return .end(consumed: position)
            case .data(let remaining):
                guard position < input.count else { return .needMore(consumed: position) }
                let count = min(remaining, input.count - position)
                state = count == remaining ? .dataEnd : .data(remaining: remaining - count)
                return .data(position..<(position + count), consumed: position + count)
            case .dataEnd:
                guard input.count - position >= 2 else {
                    if position < input.count, input[position] != HTTP1Bytes.cr { return failure(.badChunk, at: position) }
                    return .needMore(consumed: position)
                }
                guard input[position] == HTTP1Bytes.cr, input[position + 1] == HTTP1Bytes.lf else { return failure(.badChunk, at: position) }
                position += 2
                state = .size
            case .size:
                switch line(input, from: position) {
                case .incomplete: return .needMore(consumed: position)
                case .invalid(let failure): return .invalid(failure)
                case .complete(let end, let next):
                    guard let size = chunkSize(input, position, end) else { return failure(.badChunk, at: position) }
                    position = next
                    state = size == 0 ? .trailers(count: 0, bytes: 0) : .data(remaining: size)
                }
            case .trailers(let count, let bytes):
                switch line(input, from: position) {
                case .incomplete: return .needMore(consumed: position)
                case .invalid(let failure): return .invalid(failure)
                case .complete(let end, let next) where end == position:
                    state = .done
                    return .end(consumed: next)
                case .complete(let end, let next):
                    guard count < limits.maximumFieldCount else { return failure(.tooManyFields, at: position) }
                    let total = bytes + end - position
                    guard total <= limits.maximumHeadBytes else { return failure(.headTooLarge, at: position) }
                    if case .failure(let failure) = HTTP1RequestHeadParser.parseField(input, position, end, limits: limits) {
                        return .invalid(failure)
                    }
                    position = next
                    state = .trailers(count: count + 1, bytes: total)
                }
            }
        }
    }

    /// The CRLF-ended line at `start`, no longer than the per-field limit.
    private func line(_ input: HTTP1Input, from start: Int) -> HTTP1Input.Line {
        input.line(from: start, limit: limits.maximumFieldSize + 2)
    }

    /// `1*HEXDIG [ chunk-ext ]`: the size, when it fits in `Int` and what follows it is white
    /// space and extensions (`;name`, `;name=value`, `;name="quoted"`), read as field bytes.
    private func chunkSize(_ input: HTTP1Input, _ start: Int, _ end: Int) -> Int? {
        var position = start
        var size = 0
        while position < end, let digit = HTTP1Bytes.hexValue(input[position]) {
            let (times, overflowA) = size.multipliedReportingOverflow(by: 16)
            let (sum, overflowB) = times.addingReportingOverflow(digit)
            guard !overflowA, !overflowB else { return nil }
            size = sum
            position += 1
        }
        guard position > start else { return nil }
        while position < end, HTTP1Bytes.isBlank(input[position]) { position += 1 }
        guard position == end || input[position] == UInt8(ascii: ";") else { return nil }
        for offset in position..<end where !HTTP1Bytes.isFieldValue(input[offset]) { return nil }
        return size
    }

    private func failure(_ reason: HTTP1ParseFailure.Reason, at offset: Int) -> Step {
        .invalid(HTTP1ParseFailure(reason, at: offset))
    }
}
