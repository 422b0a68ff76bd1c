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
        try checkWritable(path)
        return created
    }

    /// Fails, saying why in words, when this process may not create files in the existing
    /// directory `path` (its permissions, or a read-only file system): the store's own error
    /// would name a lock file and a system call.
    static func checkWritable(_ path: String) throws(CommandFailure) {
        guard access(path, W_OK | X_OK) != 0 else { return }
        let why = errno == EROFS ? "it is on a read-only file system" : "you may not write in it (\(ownerText(path)))"
        throw CommandFailure(code: .failure, message: "cannot use the cache directory \(path): \(why); "
            + "pass a directory you can write with --cache-dir")
    }

    /// Who owns `path` and its permission bits, as `ls -l` would show them: what to change.
    private static func ownerText(_ path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return String(cString: strerror(errno)).lowercased() }
        let owner = getpwuid(info.st_uid).map { String(cString: $0.pointee.pw_name) } ?? "user \(info.st_uid)"
        return "owned by \(owner), mode \(String(info.st_mode & 0o777, radix: 8))"
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
