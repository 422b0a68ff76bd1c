import HLS
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading a playlist file for the `hls` subcommands.
enum PlaylistFile {
    /// The file's bytes, or a ``CommandFailure`` naming the file and the reason.
    static func contents(of path: String) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw CommandFailure(code: .failure, message: "\(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else {
                throw CommandFailure(code: .failure, message: "\(path): \(String(cString: strerror(errno)))")
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    /// Parses the file; a parse error becomes a one-line failure with its line number (exit 1).
    static func parse(_ path: String, options: HLSParserOptions = HLSParserOptions()) throws -> HLSPlaylist {
        let bytes = try contents(of: path)
        do {
            return try HLSPlaylist(parsing: bytes, options: options)
        } catch {
            throw CommandFailure(code: .failure, message: "\(path): \(error)")
        }
    }

    static func writeBytes(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { _ = writeAll($0, to: 1) }
    }
}
