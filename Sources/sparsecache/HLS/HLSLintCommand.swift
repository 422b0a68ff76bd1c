import ArgumentParser
import HLS

/// `sparsecache hls lint FILE|-|URL`: the rules the playlist breaks, in line order, or "no findings".
struct HLSLintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Print the RFC 8216 rules the playlist breaks, with line numbers; exit 1 if any.",
        discussion: "Findings are printed in line order, as FILE:LINE: CODE: MESSAGE; a playlist that breaks no rule prints FILE: no findings."
    )

    @Argument(help: ArgumentHelp(PlaylistFile.operandHelp, valueName: "file"))
    var file: String

    func run() async throws {
        let playlist = try await PlaylistFile.parse(file)
        let name = PlaylistFile.displayName(file)
        // The parser reports some rules only when a later line, or the end, shows them broken;
        // a reader goes through the file from the top: sort by line, keeping the order within one.
        let findings = playlist.warnings.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(\.element)
        if findings.isEmpty {
            writeToStandardOutput("\(name): no findings\n")
            return
        }
        for warning in findings {
            writeToStandardOutput("\(name):\(warning.line): \(warning.code): \(warning.message)\n")
        }
        throw ExitCode(CommandFailure.Code.failure.rawValue)
    }
}
