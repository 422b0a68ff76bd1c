#if canImport(Glibc)
import Glibc
#endif

/// The baseline: a plain file read and written with `pread`/`pwrite` and nothing else.
public struct RawFile {
    public let descriptor: Int32

    public init(path: String, create: Bool) {
        descriptor = open(path, create ? (O_RDWR | O_CREAT | O_TRUNC) : O_RDONLY, 0o644)
        precondition(descriptor >= 0, "cannot open \(path)")
    }

    public func close() { _ = Glibc.close(descriptor) }

    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) {
        let got = pread(descriptor, buffer.baseAddress, buffer.count, off_t(offset))
        precondition(got == buffer.count, "short raw read")
    }

    public func write(_ buffer: UnsafeRawBufferPointer, at offset: UInt64) {
        let done = pwrite(descriptor, buffer.baseAddress, buffer.count, off_t(offset))
        precondition(done == buffer.count, "short raw write")
    }

    public func synchronize() { precondition(fdatasync(descriptor) == 0) }
}
