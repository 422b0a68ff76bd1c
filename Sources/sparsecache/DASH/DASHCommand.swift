import ArgumentParser

/// `sparsecache dash`: parse, format, rewrite, lint and benchmark MPDs and list their segments.
struct DASHCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dash",
        abstract: "Parse, format, rewrite and lint DASH MPDs, and list their segment requests.",
        subcommands: [
            DASHParseCommand.self,
            DASHFormatCommand.self,
            DASHRewriteCommand.self,
            DASHLintCommand.self,
            DASHSegmentsCommand.self,
            DASHBenchCommand.self,
        ]
    )
}
