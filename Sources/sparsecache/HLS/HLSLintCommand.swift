import ArgumentParser
import HLS

/// `sparsecache hls lint FILE`.
struct HLSLintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Print the RFC 8216 rules the playlist breaks, with line numbers; exit 1 if any."
    )

    @Argument(help: "The playlist file.")
    var file: String

    func run() throws {
        let playlist = try PlaylistFile.parse(file)
        for warning in playlist.warnings {
            writeToStandardOutput("\(file):\(warning.line): \(warning.code): \(warning.message)\n")
        }
        if !playlist.warnings.isEmpty {
            throw ExitCode(CommandFailure.Code.failure.rawValue)
        }
    }
}
