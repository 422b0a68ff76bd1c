import ArgumentParser
import HLS

/// `sparsecache hls format FILE [--canonical]`.
struct HLSFormatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "format",
        abstract: "Print the playlist: byte-identical to the input, or normalized with --canonical."
    )

    @Argument(help: ArgumentHelp(PlaylistFile.operandHelp, valueName: "file"))
    var file: String

    @Flag(help: "Normalize: LF endings, no BOM or blank lines, no stray white space, tidy attribute lists.")
    var canonical = false

    func run() async throws {
        let playlist = try await PlaylistFile.parse(file)
        PlaylistFile.writeBytes(canonical ? playlist.canonicalFormatted() : playlist.formatted())
    }
}
