#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The per-user cache directory `serve` uses by default: `$XDG_CACHE_HOME/sparsecache`, or
/// `~/.cache/sparsecache`, or `/tmp/sparsecache-UID` when there is no home.
enum DefaultCacheDirectory {
    static var path: String {
        if let xdg = environment("XDG_CACHE_HOME"), xdg.hasPrefix("/") { return xdg + "/sparsecache" }
        if let home = environment("HOME"), !home.isEmpty { return home + "/.cache/sparsecache" }
        return "/tmp/sparsecache-\(getuid())"
    }

    private static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// Creates `path` and its missing parents (like `mkdir -p`).
    static func create(_ path: String) throws(CommandFailure) {
        var prefix = ""
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
                throw CommandFailure(code: .failure, message: "\(prefix): cannot create directory (\(String(cString: strerror(errno))))")
            }
        }
    }
}
