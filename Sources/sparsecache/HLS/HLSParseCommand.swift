import ArgumentParser
import HLS

/// `sparsecache hls parse FILE [--base URL] [--strict] --json`.
struct HLSParseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse",
        abstract: "Parse a playlist and print its model as JSON.",
        discussion: "Exits 0 when the playlist parsed (with warnings in lenient mode), 1 when the input is not a playlist or, with --strict, breaks a rule; the error and its line go to stderr. A playlist given by URL is fetched (at most 16 MiB) and its URL is the default --base."
    )

    @Argument(help: ArgumentHelp(PlaylistFile.operandHelp, valueName: "file"))
    var file: String

    @Option(help: "The playlist's URL: URIs are printed resolved against it, and EXT-X-DEFINE:QUERYPARAM reads its query.")
    var base: String?

    @Flag(help: "Treat every RFC 8216 rule violation as an error.")
    var strict = false

    @Flag(help: "Print JSON (the only output format).")
    var json = false

    func run() async throws {
        var resolver: HLSBaseURL?
        let base = self.base ?? (PlaylistFile.isURL(file) ? file : nil)
        if let base {
            guard let parsed = HLSBaseURL(base) else {
                throw CommandFailure(code: .failure, message: "--base \(base) is not an absolute URL")
            }
            resolver = parsed
        }
        let options = HLSParserOptions(mode: strict ? .strict : .lenient, playlistURL: base)
        let playlist = try await PlaylistFile.parse(file, options: options)
        var writer = JSONWriter()
        PlaylistJSON(playlist: playlist, base: resolver).write(to: &writer)
        writer.newline()
        PlaylistFile.writeBytes(writer.bytes)
    }
}
