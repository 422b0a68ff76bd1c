import ArgumentParser
import CacheStore
import SparseFile

/// `sparsecache get [DIR] KEY [--range A-B]`: prints the bytes (the whole entry without
/// `--range`), or exits 3 listing what is missing, or saying that the range is past the end.
/// When no other process holds the store, the read counts: a hit, and the entry moves up in the
/// LRU order.
struct GetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get", abstract: "Print a store entry, or bytes A-B (inclusive) of it; exit 3 if any is missing.",
        usage: StoreEntryArguments.usage("get", "[--range <range>]"),
        discussion: "A range past the end of the entry is cut at the end, as in HTTP; one that starts past it "
            + "exits 3, saying how long the entry is. Write a suffix range as --range=-N.")

    @OptionGroup var entry: StoreEntryArguments
    @Option(help: "\(InclusiveRangeArgument.rule) (default: the whole entry).") var range: InclusiveRangeArgument?

    func run() throws(CommandFailure) {
        let key = entry.key
        let asked = range ?? .whole
        var outcome: CommandFailure?
        try StoreOpening.withStore(entry.directory, .readWriteIfFree) { store throws(CacheStoreError) in
            guard let info = store.entry(for: key) else {
                throw CacheStoreError(.notCached, "\(key): not cached (the store \(store.directory) has no entry for it)")
            }
            let resolution = asked.resolved(length: info.contentLength)
            if let failure = asked.failure(resolution, name: key) { throw CacheStoreError(.notCached, failure.message) }
            guard case .bytes(let range?) = resolution else { return }
            guard let file = store.reader(for: key).file else {
                throw CacheStoreError(.notCached, "\(key): missing \(range)", missing: [range])
            }
            let missing = store.plan(key: key, range: range).missing
            guard missing.isEmpty else {
                throw CacheStoreError(.notCached, "\(key): missing " + missing.map(\.description).joined(separator: ", "), missing: missing)
            }
            do throws(CommandFailure) {
                try RangeOutput(file: file, name: key).write(range)
            } catch {
                // Closing the store still saves what it learnt; the failure is thrown after.
                outcome = error
                return
            }
            if store.isWritable {
                store.recordHit(key: key)
                store.reader(for: key).recordServed(range.length)
            }
        }
        if let outcome { throw outcome }
    }
}
