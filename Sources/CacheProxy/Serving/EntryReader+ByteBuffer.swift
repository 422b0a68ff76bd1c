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
}
