import ArgumentParser
import CacheStore
import Foundation

/// `sparsecache ls [DIR] [--json] [--bytes]`: one row (or JSON object) per entry.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls", abstract: "List a store's entries, most recently used first.",
        discussion: "JSON keys (--json, an array of one object per entry): \(jsonKeys.joined(separator: ", ")). "
            + "\"file\" is the entry's cache file as a path that works as given (inspect and verify take it).")

    @OptionGroup var store: StoreDirectoryArguments
    @Flag(help: "Print a JSON array of objects.") var json = false
    @Flag(help: "Print sizes in bytes instead of KiB, MiB, GiB.") var bytes = false

    static let jsonKeys = ["key", "cachedBytes", "contentLength", "diskBytes", "lastAccess", "pinned", "expires", "headLimit", "complete", "file"]

    func run() throws(CommandFailure) {
        let entries = try StoreOpening.withStore(store.path, readOnly: true) { store throws(CacheStoreError) in
            store.entries.map { ($0, store.path(of: $0)) }
        }
        if json {
            writeToStandardOutput(JSONValue.array(entries.map { Self.json($0.0, file: $0.1) }).rendered() + "\n")
            return
        }
        let size = { (count: UInt64) in bytes ? String(count) : ByteCountText.text(count) }
        var table = TextTable([("CACHED", .right), ("LENGTH", .right), ("DISK", .right), ("LAST ACCESS", .left),
                               ("PIN", .left), ("EXPIRES", .left), ("KEY", .left)])
        for (entry, _) in entries {
            table.append([
                size(entry.cachedBytes), entry.contentLength.map(size) ?? "-", size(entry.diskBytes), Self.iso8601(entry.lastAccess),
                entry.pinned ? "yes" : "-", entry.expires.map(Self.iso8601) ?? "-", entry.key,
            ])
        }
        writeToStandardOutput(table.rendered())
    }

    static func json(_ entry: EntryInfo, file: String) -> JSONValue {
        .object([
            ("key", .string(entry.key)),
            ("cachedBytes", .unsigned(entry.cachedBytes)),
            ("contentLength", .optional(entry.contentLength)),
            ("diskBytes", .unsigned(entry.diskBytes)),
            ("lastAccess", .string(iso8601(entry.lastAccess))),
            ("pinned", .bool(entry.pinned)),
            ("expires", .optional(entry.expires.map(iso8601))),
            ("headLimit", .optional(entry.headLimit)),
            ("complete", .bool(entry.isComplete)),
            ("file", .string(file)),
        ])
    }

    /// Milliseconds since 1970 as ISO 8601 in UTC, e.g. `2026-11-21T22:04:05.123Z`.
    static func iso8601(_ milliseconds: UInt64) -> String {
        let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        return date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }
}
