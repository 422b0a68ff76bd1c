import CacheStore
import NIOCore

/// Writes an origin body into a fill: skips what comes before the fill's first byte (an origin
/// that ignored `Range` sends from 0) and stops wanting bytes once the fill is complete.
struct FillWriter {
    let fill: FillHandle
    /// The resource offset of the next body byte.
    private(set) var position: UInt64

    /// Where the fill ends: its claimed end, or the resource's end when that comes first.
    let end: UInt64

    init(fill: FillHandle, position: UInt64, resourceLength: UInt64?) {
        self.fill = fill
        self.position = position
        end = min(fill.range.end, resourceLength ?? UInt64.max)
    }

    var wantsMore: Bool { fill.position < end }
    var remaining: UInt64 { end - min(end, fill.position) }

    mutating func write(_ chunk: ByteBuffer) throws {
        let count = UInt64(chunk.readableBytes)
        defer { position += count }
        let chunkEnd = position + count
        guard chunkEnd > fill.position else { return }
        let skip = Int(fill.position > position ? fill.position - position : 0)
        try chunk.withUnsafeReadableBytes { bytes in
            _ = try fill.write(UnsafeRawBufferPointer(rebasing: bytes[skip...]))
        }
    }
}
