import ArgumentParser
import CacheStore

/// `sparsecache stats DIR [--json]`: entries, size, limit and counters.
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stats", abstract: "Show a store's size, limit and counters.")

    @Argument(help: "The store directory.") var directory: String
    @Flag(help: "Print one JSON object.") var json = false

    func run() throws(CommandFailure) {
        let (count, total, maximum, counters, space) = try StoreOpening.withStore(directory, readOnly: true) { store throws(CacheStoreError) in
            (store.entries.count, store.totalBytes, store.maximumSize, store.statistics, store.space)
        }
        var fields: [(String, UInt64)] = [
            ("entries", UInt64(count)), ("totalBytes", total), ("maxSize", maximum), ("hits", counters.hits),
            ("misses", counters.misses), ("bytesFromCache", counters.bytesFromCache),
            ("bytesFromOrigin", counters.bytesFromOrigin), ("evictions", counters.evictions),
        ]
        if let free = space.freeBytes { fields.append(("freeBytes", free)) }
        fields.append(("minFreeBytes", space.minimumFreeBytes))
        if json {
            writeToStandardOutput(JSONValue.object(fields.map { ($0.0, .unsigned($0.1)) }).rendered() + "\n")
        } else {
            writeToStandardOutput(fields.map { "\($0.0): \($0.1)" }.joined(separator: "\n") + "\n")
        }
    }
}
