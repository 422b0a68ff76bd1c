import CacheStore

/// Opens a store for a command, turning failures into one-line errors.
enum StoreOpening {
    /// How a command opens a store.
    enum Access {
        case readOnly
        case readWrite
        /// For writing when no other process holds the store (so that what the command reads
        /// counts: a hit, the LRU order), read-only otherwise.
        case readWriteIfFree
    }

    static func open(_ directory: String, _ access: Access) throws(CommandFailure) -> CacheStore {
        if access != .readWrite, !DirectoryCheck.isDirectory(directory) {
            throw CommandFailure(code: .failure, message: "no store at \(directory) (serve, fetch, put or create makes one); name another with --cache-dir")
        }
        if access == .readWrite, DirectoryCheck.isDirectory(directory) {
            try DefaultCacheDirectory.checkWritable(directory)
        }
        if access != .readWrite, !CacheFileTarget.isStore(directory) {
            // Read-only, any folder would open as an empty store: an empty table that hides the mistake.
            throw CommandFailure(code: .usage, message: "\(directory) is a directory but not a store (it has no entries folder "
                + "and lock file); name a store directory, or the folder of serve's --cache-dir")
        }
        do {
            switch access {
            case .readOnly:
                return try CacheStore.open(at: directory, readOnly: true)
            case .readWrite:
                return try CacheStore.open(at: directory)
            case .readWriteIfFree:
                guard CacheStore.holder(of: directory) == nil else { return try CacheStore.open(at: directory, readOnly: true) }
                do {
                    return try CacheStore.open(at: directory)
                } catch where error.code == .locked {
                    return try CacheStore.open(at: directory, readOnly: true)
                }
            }
        } catch {
            throw CommandFailure(code: .failure, message: error.message)
        }
    }

    /// Runs `body` on the store, then saves its index; store errors become command failures.
    static func withStore<Result>(
        _ directory: String, readOnly: Bool, _ body: (CacheStore) throws(CacheStoreError) -> Result
    ) throws(CommandFailure) -> Result {
        try withStore(directory, readOnly ? .readOnly : .readWrite, body)
    }

    static func withStore<Result>(
        _ directory: String, _ access: Access, _ body: (CacheStore) throws(CacheStoreError) -> Result
    ) throws(CommandFailure) -> Result {
        let store = try open(directory, access)
        do {
            let result = try body(store)
            if access == .readWriteIfFree {
                // Recording the access is a bonus: a disk too full to save it fails no read.
                try? store.close()
            } else {
                try store.close()
            }
            return result
        } catch {
            throw CommandFailure(code: error.code == .notCached ? .missing : .failure, message: error.message)
        }
    }
}
