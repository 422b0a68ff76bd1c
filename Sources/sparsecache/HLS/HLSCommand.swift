import ArgumentParser

/// `sparsecache hls`: parse, format, rewrite, lint and benchmark HLS playlists.
struct HLSCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hls",
        abstract: "Parse, format, rewrite and lint HLS playlists.",
        subcommands: [
            HLSParseCommand.self,
            HLSFormatCommand.self,
            HLSRewriteCommand.self,
            HLSLintCommand.self,
            HLSBenchCommand.self,
        ]
    )
}
