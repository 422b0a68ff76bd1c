import ArgumentParser

/// `sparsecache help-reference`: prints `Docs/CLI.md`, the reference of every command, option,
/// JSON key and exit status, made from the command definitions. Hidden from the command list.
struct HelpReferenceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "help-reference", abstract: "Print the Markdown reference of every command (Docs/CLI.md).", shouldDisplay: false)

    func run() throws {
        writeToStandardOutput(try ReferencePage.markdown())
    }
}
