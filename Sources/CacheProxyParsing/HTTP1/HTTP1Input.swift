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

    func string(_ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    private func firstIndex(of byte: UInt8, from start: Int, before end: Int) -> Int? {
        guard start < end, let base = bytes.baseAddress, let found = memchr(base + start, Int32(byte), end - start) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }
}
