#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes all of `bytes` to a file descriptor, retrying short writes and EINTR.
/// Returns false when the stream is closed (EPIPE) or fails.
@discardableResult
func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    var offset = 0
    while offset < bytes.count {
        let written = write(descriptor, base + offset, bytes.count - offset)
        if written < 0 && errno == EINTR { continue }
        if written <= 0 { return false }
        offset += written
    }
    return true
}

func writeToStandardError(_ text: String) {
    var text = text
    text.withUTF8 { _ = writeAll(UnsafeRawBufferPointer($0), to: 2) }
}

func writeToStandardOutput(_ text: String) {
    var text = text
    text.withUTF8 { _ = writeAll(UnsafeRawBufferPointer($0), to: 1) }
}
