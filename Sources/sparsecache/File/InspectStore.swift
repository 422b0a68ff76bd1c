import CacheStore
import SparseFile

/// `sparsecache inspect DIR`: a store's size and limit, then each entry (most recently used
/// first) with a coverage bar, its cached bytes and its key.
struct InspectStore {
    var directory: String
    var json: Bool

    func run() throws(CommandFailure) {
        let (entries, total, maximum) = try StoreOpening.withStore(directory, readOnly: true) { store throws(CacheStoreError) in
            (store.entries.map { entry in (entry, store.path(of: entry), Self.ranges(of: store.path(of: entry))) }, store.totalBytes, store.maximumSize)
        }
        if json {
            let document = JSONValue.object([
                ("store", .string(directory)), ("totalBytes", .unsigned(total)), ("maxSize", .unsigned(maximum)),
                ("entries", .array(entries.map { ListCommand.json($0.0, file: $0.1) })),
            ])
            writeToStandardOutput(document.rendered() + "\n")
            return
        }
        var lines = [
            "store:   \(directory)",
            "size:    \(ByteCountText.text(total)) of \(ByteCountText.text(maximum)), \(CountText.text(entries.count, "entry", plural: "entries"))",
        ]
        for (entry, _, ranges) in entries {
            let length = entry.contentLength.map(ByteCountText.text) ?? "?"
            lines.append("\(CoverageBar.render(ranges: ranges, length: entry.contentLength, width: 24)) "
                + "\(ByteCountText.text(entry.cachedBytes)) of \(length)\(entry.pinned ? ", pinned" : "")  \(entry.key)")
        }
        writeToStandardOutput(lines.joined(separator: "\n") + "\n")
    }

    /// The cached ranges of an entry's file; none when it cannot be read (a file being replaced).
    private static func ranges(of path: String) -> [ByteRange] {
        (try? SparseFile.open(at: path))?.cachedRanges ?? []
    }
}
