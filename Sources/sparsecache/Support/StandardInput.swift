#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum StandardInput {
    /// Fills `buffer` from standard input; returns the count (0 at end), or -1 on error.
    static func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var filled = 0
        while filled < buffer.count {
            let got = Glibc.read(0, base + filled, buffer.count - filled)
            if got < 0 && errno == EINTR { continue }
            if got < 0 { return filled > 0 ? filled : -1 }
            if got == 0 { break }
            filled += got
        }
        return filled
    }

    /// All of standard input.
    static func readAll() throws(CommandFailure) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(into: $0) }
            if count < 0 { throw CommandFailure(code: .failure, message: "reading standard input failed") }
            if count == 0 { return bytes }
            bytes += buffer[0..<count]
        }
    }
}
