import NIOCore

/// The part of an origin's body that a request wants: the body starts at `bodyStart` (0 when
/// the origin ignored `Range`, or earlier than asked when it sent more), and only bytes in
/// `start..<end` are kept. Every reader of ranged origin bodies (fills and pass-through) cuts
/// chunks with it, so they agree on what a chunk holds.
struct OriginBodyWindow {
    /// The resource offset of the next body byte.
    private(set) var position: UInt64
    let start: UInt64
    /// One past the last wanted byte; `UInt64.max` for "to the end".
    let end: UInt64

    init(bodyStart: UInt64, start: UInt64, end: UInt64) {
        position = bodyStart
        self.start = start
        self.end = end
    }

    /// Whether every wanted byte has been taken.
    var isComplete: Bool { position >= end }

    /// The wanted part of the next body chunk (nil when none of it is wanted); advances past the
    /// whole chunk.
    mutating func take(_ chunk: ByteBuffer) -> ByteBuffer? {
        let chunkStart = position
        position += UInt64(chunk.readableBytes)
        let from = max(chunkStart, start)
        let to = min(position, end)
        guard from < to else { return nil }
        return chunk.getSlice(at: chunk.readerIndex + Int(from - chunkStart), length: Int(to - from))
    }
}
