import NIOCore
import TestSupport

/// The bytes every contract origin serves: a prime-length block of pseudo-random bytes,
/// repeated, so that any range of a body of any size is cheap to make and to check (a chunk
/// delivered at the wrong offset does not match).
enum BodyPattern {
    private static let block = TestBytes(seed: 33).bytes(0, 65_521)

    /// The `count` bytes at `offset`.
    static func bytes(at offset: Int, count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        var position = offset
        while bytes.count < count {
            let start = position % block.count
            let length = min(block.count - start, count - bytes.count)
            bytes.append(contentsOf: block[start..<start + length])
            position += length
        }
        return bytes
    }

    /// Whether `chunk` holds the bytes at `offset`.
    static func matches(_ chunk: ByteBuffer, at offset: Int) -> Bool {
        sameBytes(chunk.readableBytesView, bytes(at: offset, count: chunk.readableBytes))
    }
}
