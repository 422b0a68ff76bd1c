import ArgumentParser
import SparseFile

/// `sparsecache inspect [FILE | DIR | [DIR] KEY] [--json]`: header fields, the range table and a
/// coverage bar of a cache file (given by path, or as a store entry by its key), or a store's
/// entries with their coverage.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show a cache file's header, range table and coverage, or a store's entries.",
        usage: "sparsecache inspect [--cache-dir <dir>] [<file> | <dir> | [<dir>] <key>] [--json]",
        discussion: """
            The target is a cache file, a store directory (its entries, each with a coverage bar), or an entry of a \
            store named by its key, a URL: `inspect URL` looks in --cache-dir's store or the per-user one, \
            `inspect DIR URL` in DIR. Without a target, the per-user store. JSON keys (--json) of a file or entry: \
            \(fileJSONKeys.joined(separator: ", ")); of a store: store, totalBytes, maxSize, and entries, an array of \
            the objects `ls --json` prints.
            """)

    @Argument(help: ArgumentHelp("A cache file, a store directory, or a key (URL) of a store entry.", valueName: "target"))
    var operands: [String] = []

    @OptionGroup var cacheDirectory: CacheDirectoryOption

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    static let fileJSONKeys = [
        "file", "version", "key", "contentLength", "cachedBytes", "complete", "ranges", "contentType", "entityTag", "lastModified",
        "attributes", "generation", "activeSlot", "dataEnd", "fileSize", "extentCount", "tableSpilled", "createdAt",
    ]

    func validate() throws {
        guard CacheFileTarget.resolve(operands, cacheDirectory: cacheDirectory).count == 1 else {
            throw ValidationError("inspect shows one target: a cache file, a store directory, or [DIR] KEY")
        }
    }

    func run() throws(CommandFailure) {
        switch CacheFileTarget.resolve(operands, cacheDirectory: cacheDirectory).first {
        case .file(let path)?:
            try inspectFile(path)
        case .entry(let store, let key)?:
            let location = try StoreEntryLocation.find(in: store, keys: [key])
            try inspectFile(location.first?.file ?? key)
        case .store(let directory)?:
            try InspectStore(directory: directory, json: json).run()
        case .directory(let path)?:
            throw CommandFailure(code: .usage, message: "\(path) is a directory but not a store; give a cache file, a store directory or [DIR] KEY")
        case nil:
            break
        }
    }

    private func inspectFile(_ file: String) throws(CommandFailure) {
        let (cacheFile, info) = try failingWithExitCode { () throws(SparseFileError) in
            let cacheFile = try SparseFile.open(at: file)
            return (cacheFile, try cacheFile.headerInfo)
        }
        let metadata = cacheFile.metadata
        let ranges = cacheFile.cachedRanges
        if json {
            writeToStandardOutput(Self.json(file: file, metadata: metadata, info: info, ranges: ranges, cacheFile: cacheFile).rendered() + "\n")
            return
        }
        var lines = [
            "file:           \(file)",
            "format version: \(info.formatVersion)",
            "key:            \(metadata.key)",
            "content length: \(metadata.contentLength.map(String.init) ?? "unknown")",
            "cached bytes:   \(cacheFile.cachedByteCount)\(cacheFile.isComplete ? " (complete)" : "")",
            "content type:   \(metadata.contentType ?? "-")",
            "etag:           \(metadata.entityTag ?? "-")",
            "last modified:  \(metadata.lastModified ?? "-")",
            "generation:     \(info.generation) (slot \(info.activeSlot))",
            "data end:       \(info.dataEnd)",
            "file size:      \(info.fileSize)",
            "range table:    \(info.extentCount) extents, \(info.isTableSpilled ? "spilled (zlib)" : "inline")",
        ]
        for name in metadata.attributes.keys.sorted() {
            lines.append("attribute:      \(name)=\(metadata.attributes[name] ?? "")")
        }
        lines.append("coverage:       \(CoverageBar.render(ranges: ranges, length: metadata.contentLength))")
        lines.append("ranges (original offset  length  -> data offset):")
        let extents = cacheFile.storedExtents
        for extent in extents.prefix(1000) {
            lines.append("  \(extent.range.offset)  \(extent.range.length)  -> \(extent.dataOffset)")
        }
        if extents.count > 1000 { lines.append("  … \(extents.count - 1000) more") }
        writeToStandardOutput(lines.joined(separator: "\n") + "\n")
    }

    static func json(file: String, metadata: ResourceMetadata, info: SparseFile.HeaderInfo, ranges: [ByteRange], cacheFile: SparseFile) -> JSONValue {
        .object([
            ("file", .string(file)),
            ("version", .integer(Int64(info.formatVersion))),
            ("key", .string(metadata.key)),
            ("contentLength", .optional(metadata.contentLength)),
            ("cachedBytes", .unsigned(cacheFile.cachedByteCount)),
            ("complete", .bool(cacheFile.isComplete)),
            ("ranges", .array(ranges.map { .object([("offset", .unsigned($0.offset)), ("length", .unsigned($0.length))]) })),
            ("contentType", .optional(metadata.contentType)),
            ("entityTag", .optional(metadata.entityTag)),
            ("lastModified", .optional(metadata.lastModified)),
            ("attributes", .object(metadata.attributes.keys.sorted().map { ($0, .string(metadata.attributes[$0] ?? "")) })),
            ("generation", .unsigned(info.generation)),
            ("activeSlot", .integer(Int64(info.activeSlot))),
            ("dataEnd", .unsigned(info.dataEnd)),
            ("fileSize", .unsigned(info.fileSize)),
            ("extentCount", .integer(Int64(info.extentCount))),
            ("tableSpilled", .bool(info.isTableSpilled)),
            ("createdAt", .unsigned(info.createdAt)),
        ])
    }
}
