import CacheStore
import NIOCore

/// Writes an origin body into a fill: skips what comes before the fill's first byte (an origin
/// that ignored `Range` sends from 0) and stops wanting bytes once the fill is complete.
struct FillWriter {
    let fill: FillHandle
    private var window: OriginBodyWindow

    init(fill: FillHandle, bodyStart: UInt64, resourceLength: UInt64?) {
        self.fill = fill
        // Where the fill ends: its claimed end, or the resource's end when that comes first.
        window = OriginBodyWindow(bodyStart: bodyStart, start: fill.range.offset, end: min(fill.range.end, resourceLength ?? UInt64.max))
    }

    /// The resource offset of the next body byte.
    var position: UInt64 { window.position }
    var wantsMore: Bool { fill.position < window.end }
    var remaining: UInt64 { window.end - min(window.end, fill.position) }

    mutating func write(_ chunk: ByteBuffer) throws {
        guard let wanted = window.take(chunk) else { return }
        try wanted.withUnsafeReadableBytes { bytes in
            _ = try fill.write(bytes)
        }
    }
}
