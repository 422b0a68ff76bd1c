import ArgumentParser
import CacheStore

/// `sparsecache put DIR KEY --offset N [--total-length L]`: stores standard input's bytes.
struct PutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "put", abstract: "Store standard input's bytes at an original offset of a store entry.")

    @Argument(help: "The store directory (created when missing).") var directory: String
    @Argument(help: "The cache key (URLs are normalized as the proxy does).") var key: String
    @Option(help: "The original offset of the first byte.") var offset: UInt64
    @Option(help: "The total length of the resource, when known.") var totalLength: UInt64?

    func run() throws(CommandFailure) {
        let bytes = try StandardInput.readAll()
        let key = CacheKey.normalizedURL(self.key)
        try StoreOpening.withStore(directory, readOnly: false) { store throws(CacheStoreError) in
            try store.put(key: key, offset: offset, bytes: bytes, metadata: EntryMetadata(contentLength: totalLength))
        }
    }
}
