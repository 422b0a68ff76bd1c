import ArgumentParser
import CacheStore
import SparseFile

/// `sparsecache get DIR KEY --range A-B`: prints the bytes, or exits 3 listing what is missing.
/// When no other process holds the store, the read counts: a hit, and the entry moves up in the
/// LRU order.
struct GetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get", abstract: "Print bytes A-B (inclusive) of a store entry; exit 3 if any is missing.")

    @OptionGroup var entry: StoreEntryArguments
    @Option(help: "Inclusive byte positions, as in HTTP: A-B.") var range: InclusiveRangeArgument

    func run() throws(CommandFailure) {
        let key = entry.key
        let bytes = try StoreOpening.withStore(entry.directory, .readWriteIfFree) { store throws(CacheStoreError) -> [UInt8] in
            let missing = store.plan(key: key, range: range.range).missing
            guard missing.isEmpty, let file = store.reader(for: key).file else {
                let gaps = missing.isEmpty ? [range.range] : missing
                throw CacheStoreError(.notCached, "\(key): missing " + gaps.map(\.description).joined(separator: ", "), missing: gaps)
            }
            do {
                switch try file.read(range.range) {
                case .bytes(let bytes):
                    if store.isWritable {
                        store.recordHit(key: key)
                        store.reader(for: key).recordServed(UInt64(bytes.count))
                    }
                    return bytes
                case .missing(let gaps):
                    throw CacheStoreError(.notCached, "\(key): missing " + gaps.map(\.description).joined(separator: ", "), missing: gaps)
                }
            } catch let error as CacheStoreError {
                throw error
            } catch {
                throw CacheStoreError(.ioFailure, "\(error)")
            }
        }
        bytes.withUnsafeBytes { _ = writeAll($0, to: 1) }
    }
}
