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
    ///
    /// - Returns: the outermost directory this call created (removing it undoes the call), or
    ///   nil when `path` existed.
    @discardableResult
    static func create(_ path: String) throws(CommandFailure) -> String? {
        var prefix = path.hasPrefix("/") ? "" : "."
        var created: String?
        for component in path.split(separator: "/") {
            let parent = prefix.isEmpty ? "/" : prefix
            prefix += "/" + component
            if mkdir(prefix, 0o755) == 0 {
                created = created ?? prefix
            } else if errno != EEXIST {
                throw CommandFailure(code: .failure, message: "cannot create the cache directory \(path): "
                    + reason(errno, parent: parent) + "; pass a directory you can write with --cache-dir")
            }
        }
        guard DirectoryCheck.isDirectory(path) else {
            throw CommandFailure(code: .failure, message: "the cache directory \(path) is a file; pass a directory with --cache-dir")
        }
        return created
    }

    /// Why `mkdir` failed, in words: `/proc` answers "no such file" for a directory it cannot hold.
    private static func reason(_ code: Int32, parent: String) -> String {
        switch code {
        case EACCES, EPERM: "\(parent) does not let you create directories"
        case EROFS: "\(parent) is on a read-only file system"
        case ENOENT: "\(parent) does not take new directories"
        case ENOTDIR: "\(parent) is a file, not a directory"
        case ENOSPC, EDQUOT: "the disk is full"
        default: String(cString: strerror(code)).lowercased()
        }
    }
}
