import CacheStore
import NIOCore
import SparseFile

extension EntryReader {
    /// Reads `count` cached bytes at `offset` straight into `buffer`'s writable space, verified.
    ///
    /// - Returns: false when some byte is not cached (or failed its checksum and was dropped);
    ///   `buffer` is then unchanged.
    func read(into buffer: inout ByteBuffer, count: Int, at offset: UInt64) throws -> Bool {
        var outcome = ReadOutcome.complete
        try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { pointer in
            outcome = try read(into: UnsafeMutableRawBufferPointer(rebasing: pointer[0..<count]), at: offset)
            return outcome == .complete ? count : 0
        }
        return outcome == .complete
    }

    /// All of `bytes` in a new buffer when `file` (the entry's file) holds them and they are at
    /// most `limit` long; nil otherwise (also when a block fails its checksum: it is dropped, and
    /// reads as missing).
    func readWhole(_ bytes: ByteRange, of file: SparseFile?, limit: Int, allocator: ByteBufferAllocator) throws -> ByteBuffer? {
        guard bytes.length <= UInt64(limit), let file, file.cachedLength(from: bytes.offset) >= bytes.length else { return nil }
        var buffer = allocator.buffer(capacity: Int(bytes.length))
        return try read(into: &buffer, count: Int(bytes.length), at: bytes.offset) ? buffer : nil
    }
}
