import CacheStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `inspect` and `verify` are pointed at: a cache file, a whole store, an entry of a store
/// named by its key (a URL), or, for `verify`, any directory to search for cache files.
enum CacheFileTarget: Equatable {
    case file(String)
    case store(String)
    case entry(store: String, key: String)
    case directory(String)

    /// Reads the operands of `inspect` and `verify`:
    /// - none: the store of `--cache-dir`, or the per-user one;
    /// - `DIR KEY...` where DIR is a store and no KEY is a path: those entries of DIR;
    /// - otherwise each operand alone: a file, a store, another directory, or, when it is no
    ///   path, a key of the `--cache-dir` store (a key without `://` needs `--cache-dir`, so a
    ///   mistyped path is reported as a missing file rather than a missing entry).
    static func resolve(_ operands: [String], cacheDirectory: CacheDirectoryOption) -> [CacheFileTarget] {
        guard let first = operands.first else { return [.store(cacheDirectory.path)] }
        if operands.count > 1, isStore(first), operands.dropFirst().allSatisfy({ kind(of: $0) == nil }) {
            return operands.dropFirst().map { .entry(store: first, key: $0) }
        }
        return operands.map { operand in
            let kind = kind(of: operand)
            if kind == S_IFDIR { return isStore(operand) ? .store(operand) : .directory(operand) }
            if kind == nil, operand.contains("://") || cacheDirectory.explicitPath != nil {
                return .entry(store: cacheDirectory.path, key: operand)
            }
            return .file(operand)
        }
    }

    /// A store directory holds an `entries` folder and the writer's `lock` file.
    static func isStore(_ path: String) -> Bool {
        kind(of: path + "/entries") == S_IFDIR && kind(of: path + "/lock") == S_IFREG
    }

    private static func kind(of path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }
}

/// An entry of a store found by its key: its key as stored and the path of its file.
struct StoreEntryLocation {
    var key: String
    var file: String

    /// The entries of `directory` named by `keys` (normalized as the proxy does), or all of them.
    static func find(in directory: String, keys: [String]?) throws(CommandFailure) -> [StoreEntryLocation] {
        try StoreOpening.withStore(directory, readOnly: true) { store throws(CacheStoreError) in
            guard let keys else { return store.entries.map { StoreEntryLocation(key: $0.key, file: store.path(of: $0)) } }
            return try keys.map { raw throws(CacheStoreError) in
                // A key exactly as stored first: normalizing would drop the `#vary(...)=` suffix
                // of an entry kept per `Vary` value (its `#` reads as a URL's fragment).
                let key = store.entry(for: raw) != nil ? raw : CacheKey.normalizedURL(raw)
                guard let entry = store.entry(for: key) else {
                    throw CacheStoreError(.noEntry, "no entry for \(raw) in the store \(directory)")
                }
                return StoreEntryLocation(key: key, file: store.path(of: entry))
            }
        }
    }
}
