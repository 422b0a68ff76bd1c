import CacheProxy
import CacheProxyServer
import CacheProxyParsing
import HLS
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading a playlist for the `hls` subcommands: a file, `-` for standard input, or (for the
/// commands that fetch, ``fetchingContents(of:)``) an http(s) URL.
enum PlaylistFile {
    /// The most a playlist URL may return: the proxy's own limit for a playlist.
    static let fetchLimit = 16 << 20

    /// What the help of a playlist operand says.
    static let operandHelp = "The playlist: a file, - for standard input, or an http(s) URL."

    /// Whether the operand names a URL to fetch rather than a file.
    static func isURL(_ operand: String) -> Bool {
        let lowered = operand.prefix(8).lowercased()
        return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
    }

    /// The operand's bytes: fetched when it is an http(s) URL, else as ``contents(of:)`` reads them.
    static func fetchingContents(of operand: String) async throws -> [UInt8] {
        guard isURL(operand) else { return try contents(of: operand) }
        let url: OriginURL
        do {
            url = try OriginURL(parsing: operand)
        } catch {
            throw CommandFailure(code: .failure, message: "\(operand) is not a URL that can be fetched: \(error.message)")
        }
        do {
            return try await WholeResourceFetch.bytes(of: url, limit: fetchLimit)
        } catch {
            throw CommandFailure(code: .failure, message: error.message)
        }
    }

    /// The file's bytes (standard input's for `-`), or a ``CommandFailure`` naming the file and
    /// the reason.
    static func contents(of path: String) throws -> [UInt8] {
        if path == "-" { return try StandardInput.readAll() }
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

    /// Parses the playlist a file, `-` or a URL holds; a parse error becomes a one-line failure
    /// with its line number (exit 1).
    static func parse(_ operand: String, options: HLSParserOptions = HLSParserOptions()) async throws -> HLSPlaylist {
        let bytes = try await fetchingContents(of: operand)
        do {
            return try HLSPlaylist(parsing: bytes, options: options)
        } catch {
            throw CommandFailure(code: .failure, message: "\(displayName(operand)): \(error)")
        }
    }

    /// How messages name the operand: `-` is standard input.
    static func displayName(_ operand: String) -> String {
        operand == "-" ? "(standard input)" : operand
    }

    static func writeBytes(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { _ = writeAll($0, to: 1) }
    }
}
