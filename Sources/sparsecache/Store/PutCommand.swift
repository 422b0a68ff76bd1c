import ArgumentParser
import CacheStore

/// `sparsecache put [DIR] KEY --offset N [--total-length L]`: stores standard input's bytes.
struct PutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "put", abstract: "Store standard input's bytes at an original offset of a store entry.",
        usage: StoreEntryArguments.usage("put", "--offset <offset> [--total-length <total-length>]"))

    @OptionGroup var entry: StoreEntryArguments
    @Option(help: "The original offset of the first byte.") var offset: UInt64
    @Option(help: "The total length of the resource, when known.") var totalLength: UInt64?

    func run() throws(CommandFailure) {
        try HeldStoreRefusal.check(entry.directory, command: "put", instead: "stop the proxy first")
        let bytes = try StandardInput.readAll()
        let key = entry.key
        try StoreOpening.withStore(entry.directory, readOnly: false) { store throws(CacheStoreError) in
            try store.put(key: key, offset: offset, bytes: bytes, metadata: EntryMetadata(contentLength: totalLength))
        }
    }
}
