import DASH

/// Reading an MPD file for the `dash` subcommands.
enum ManifestFile {
    /// Parses the file; a parse error becomes a one-line failure with its line and column (exit 1).
    static func parse(_ path: String, options: DASHParserOptions = DASHParserOptions()) throws -> DASHManifest {
        let bytes = try PlaylistFile.contents(of: path)
        do {
            return try DASHManifest(parsing: bytes, options: options)
        } catch {
            throw CommandFailure(code: .failure, message: "\(path): \(error.code): \(error)")
        }
    }

    /// The MPD's URL from `--base`, which must be absolute.
    static func baseURL(_ text: String) throws -> DASHAbsoluteURL {
        guard let url = DASHAbsoluteURL(text) else {
            throw CommandFailure(code: .failure, message: "--base \(text) is not an absolute URL")
        }
        return url
    }
}
