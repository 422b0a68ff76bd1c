import ArgumentParser

/// `sparsecache file ...`: store and read bytes of a single cache file.
struct FileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "file",
        abstract: "Write and read the bytes of a single cache file.",
        subcommands: [FileWriteCommand.self, FileReadCommand.self]
    )
}
