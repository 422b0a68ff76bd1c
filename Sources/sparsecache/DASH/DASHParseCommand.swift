import ArgumentParser
import DASH

/// `sparsecache dash parse FILE [--base URL] [--strict] --json`.
struct DASHParseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse",
        abstract: "Parse an MPD and print its model as JSON.",
        discussion: "Exits 0 when the MPD parsed (with warnings in lenient mode), 1 when it is not a well-formed MPD, exceeds a limit or, with --strict, breaks a rule; the error, its line and column go to stderr."
    )

    @Argument(help: "The MPD file.")
    var file: String

    @Option(help: "The MPD's URL: BaseURLs are printed resolved against it.")
    var base: String?

    @Flag(help: "Treat every rule violation as an error.")
    var strict = false

    @Flag(help: "Print JSON (the only output format).")
    var json = false

    func run() throws {
        let resolver = try base.map(ManifestFile.baseURL)
        let manifest = try ManifestFile.parse(file, options: DASHParserOptions(mode: strict ? .strict : .lenient))
        var writer = JSONWriter()
        ManifestJSON(manifest: manifest, base: resolver).write(to: &writer)
        writer.newline()
        PlaylistFile.writeBytes(writer.bytes)
    }
}

/// `sparsecache dash format FILE`.
struct DASHFormatCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "format",
        abstract: "Print the MPD back, byte-identical to the input (after checking that it parses)."
    )

    @Argument(help: "The MPD file.")
    var file: String

    func run() throws {
        PlaylistFile.writeBytes(try ManifestFile.parse(file).formatted())
    }
}

/// `sparsecache dash lint FILE`.
struct DASHLintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Print the rules the MPD breaks, with line and column; exit 1 if any."
    )

    @Argument(help: "The MPD file.")
    var file: String

    func run() throws {
        let manifest = try ManifestFile.parse(file)
        for warning in manifest.warnings {
            writeToStandardOutput("\(file):\(warning.position.line):\(warning.position.column): \(warning.code): \(warning.message)\n")
        }
        if !manifest.warnings.isEmpty {
            throw ExitCode(CommandFailure.Code.failure.rawValue)
        }
    }
}
