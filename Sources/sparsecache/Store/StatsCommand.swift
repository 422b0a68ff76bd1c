import ArgumentParser
import CacheStore

/// `sparsecache stats [DIR] [--json] [--bytes]`: entries, size, limit and counters.
struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats", abstract: "Show a store's size, limit and counters.",
        discussion: """
            JSON keys (--json, one object): entries, totalBytes, maxSize, hits, misses, bytesFromCache, bytesFromOrigin, \
            evictions, freeBytes, minFreeBytes. freeBytes (the volume's free space) is left out when the volume does not \
            report it. The counters are those the store last saved: a running proxy saves them about once a minute (its \
            GET /status is live).
            """)

    @OptionGroup var store: StoreDirectoryArguments
    @Flag(help: "Print one JSON object.") var json = false
    @Flag(help: "Print sizes in bytes instead of KiB, MiB, GiB.") var bytes = false

    func run() throws(CommandFailure) {
        let (count, total, maximum, counters, space) = try StoreOpening.withStore(store.path, readOnly: true) { store throws(CacheStoreError) in
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
            return
        }
        var lines = fields.map { name, value in
            let isSize = name.hasPrefix("bytes") || name.hasSuffix("Bytes") || name.hasSuffix("Size")
            return "\(name): " + (isSize && !bytes ? ByteCountText.text(value) : String(value))
        }
        if let holder = CacheStore.holder(of: store.path) {
            let live = holder.controlAddress.map { "\($0)/status" } ?? "its GET /status"
            lines.append("(another process, such as a running proxy, writes this store: these counters are as it last saved them, "
                + "about once a minute; live ones are at \(live))")
        }
        writeToStandardOutput(lines.joined(separator: "\n") + "\n")
    }
}
