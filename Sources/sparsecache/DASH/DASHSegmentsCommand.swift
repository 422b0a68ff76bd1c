import ArgumentParser
import DASH

/// `sparsecache dash segments FILE --base URL [--representation ID] [--start S] [--end S] [--index FILE] [--json]`.
struct DASHSegmentsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "segments",
        abstract: "List the requests (URL and byte range) of each Representation for a time range.",
        discussion: """
            Times are seconds from the start of each Period. A SegmentBase Representation needs its sidx box: \
            --index FILE holds the bytes of its @indexRange (curl -r). Without --json, one request per line: \
            URL, then the byte range when there is one. Exits 1 when a list cannot be made (an unbounded live \
            timeline without --end, more segments than the limit), with the line and column of the element.
            """
    )

    @Argument(help: "The MPD file.")
    var file: String

    @Option(help: "The MPD's URL, which relative URLs resolve against.")
    var base: String

    @Option(help: "Only the Representation with this @id.")
    var representation: String?

    @Option(help: "Start of the range, in seconds from the Period start.")
    var start: Double = 0

    @Option(help: "End of the range, in seconds (default: the end of the Period).")
    var end: Double?

    @Option(help: "The bytes of a SegmentBase Representation's @indexRange (its sidx box).")
    var index: String?

    @Flag(help: "Print JSON.")
    var json = false

    func validate() throws {
        guard start.isFinite, start >= 0, end.map({ $0.isFinite && $0 >= start }) ?? true else {
            throw ValidationError("--start and --end must be finite seconds, start <= end")
        }
    }

    func run() throws {
        let baseURL = try ManifestFile.baseURL(base)
        let manifest = try ManifestFile.parse(file)
        let chosen = manifest.representations.filter { representation == nil || $0.id == representation }
        if chosen.isEmpty {
            throw CommandFailure(code: .failure, message: "\(file): no Representation\(representation.map { " with @id \($0)" } ?? "")")
        }
        let indexBytes = try index.map(PlaylistFile.contents(of:))
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("representations")
        writer.beginArray()
        var text = ""
        for item in chosen {
            do {
                let initialization = try item.initializationRequest(manifestURL: baseURL)
                let indexRequest = item.indexRequest(manifestURL: baseURL)
                var parsedIndex: DASHSegmentIndex?
                if let indexBytes, let range = indexRequest?.byteRange {
                    parsedIndex = try DASHSegmentIndex(parsing: indexBytes, fileOffset: range.first)
                }
                let requests = try item.segmentRequests(manifestURL: baseURL, in: DASHTimeRange(start: start, end: end),
                                                        index: parsedIndex)
                writer.beginObject()
                writer.key("period"); writer.string(item.period.id)
                writer.key("id"); writer.string(item.id)
                writer.key("bandwidth"); writer.number(item.bandwidth)
                writer.key("initialization"); Self.write(initialization, to: &writer)
                writer.key("index"); Self.write(indexRequest, to: &writer)
                writer.key("segments")
                writer.beginArray()
                for request in [initialization, indexRequest].compactMap({ $0 }) + Array(requests) {
                    text += request.url + (request.byteRange.map { " \($0)" } ?? "") + "\n"
                }
                for request in requests { Self.write(request, to: &writer) }
                writer.endArray()
                writer.endObject()
            } catch {
                throw CommandFailure(code: .failure, message: "\(file): Representation \(item.id ?? "?"): \(error)")
            }
        }
        writer.endArray()
        writer.endObject()
        writer.newline()
        if json {
            PlaylistFile.writeBytes(writer.bytes)
        } else {
            writeToStandardOutput(text)
        }
    }

    private static func write(_ request: DASHSegmentRequest?, to writer: inout JSONWriter) {
        guard let request else {
            writer.string(nil)
            return
        }
        writer.beginObject()
        writer.key("url"); writer.string(request.url)
        writer.key("range"); writer.string(request.byteRange?.description)
        writer.key("number"); writer.number(request.number)
        writer.key("time"); writer.number(request.time)
        writer.key("duration"); writer.number(request.duration)
        writer.key("timescale"); writer.number(request.timescale)
        writer.endObject()
    }
}
