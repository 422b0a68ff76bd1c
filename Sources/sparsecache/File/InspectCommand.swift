import ArgumentParser
import SparseFile

/// `sparsecache inspect FILE [--json]`: header fields, the range table and a coverage bar.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show a cache file's header, range table and coverage."
    )

    @Argument(help: "The cache file.")
    var file: String

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func run() throws(CommandFailure) {
        let (cacheFile, info) = try failingWithExitCode { () throws(SparseFileError) in
            let cacheFile = try SparseFile.open(at: file)
            return (cacheFile, try cacheFile.headerInfo)
        }
        let metadata = cacheFile.metadata
        let ranges = cacheFile.cachedRanges
        if json {
            writeToStandardOutput(Self.json(metadata: metadata, info: info, ranges: ranges, cacheFile: cacheFile).rendered() + "\n")
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

    static func json(metadata: ResourceMetadata, info: SparseFile.HeaderInfo, ranges: [ByteRange], cacheFile: SparseFile) -> JSONValue {
        .object([
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
