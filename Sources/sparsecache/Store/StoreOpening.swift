import CacheStore

/// Opens a store for a command, turning failures into one-line errors.
enum StoreOpening {
    static func open(_ directory: String, readOnly: Bool) throws(CommandFailure) -> CacheStore {
        if readOnly, !DirectoryCheck.isDirectory(directory) {
            throw CommandFailure(code: .failure, message: "no store at \(directory) (serve, fetch, put or create makes one); name another with --cache-dir")
        }
        do {
            return try CacheStore.open(at: directory, readOnly: readOnly)
        } catch {
            throw CommandFailure(code: .failure, message: error.message)
        }
    }

    /// Runs `body` on the store, then saves its index; store errors become command failures.
    static func withStore<Result>(
        _ directory: String, readOnly: Bool, _ body: (CacheStore) throws(CacheStoreError) -> Result
    ) throws(CommandFailure) -> Result {
        let store = try open(directory, readOnly: readOnly)
        do {
            let result = try body(store)
            try store.close()
            return result
        } catch {
            throw CommandFailure(code: error.code == .notCached ? .missing : .failure, message: error.message)
        }
    }
}
