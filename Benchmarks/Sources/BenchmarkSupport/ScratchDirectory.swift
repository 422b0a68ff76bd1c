#if canImport(Glibc)
import Glibc
#endif

/// Scratch files for benchmarks.
public enum ScratchDirectory {
    /// Fast, reproducible pseudo-random bytes (xorshift64).
    public static func randomBytes(count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            for index in stride(from: 0, to: count, by: 8) {
                state ^= state << 13; state ^= state >> 7; state ^= state << 17
                for byte in 0..<min(8, count - index) { buffer[index + byte] = UInt8(truncatingIfNeeded: state >> UInt64(byte * 8)) }
            }
            initialized = count
        }
    }

    /// Removes `path` and everything under it.
    public static func remove(_ path: String) {
        guard let directory = opendir(path) else {
            unlink(path)
            return
        }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            guard name != "." && name != ".." else { continue }
            remove(path + "/" + name)
        }
        closedir(directory)
        rmdir(path)
    }
}
