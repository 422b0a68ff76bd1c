/// The parts of argument-parser's `--experimental-dump-help` JSON (its `ToolInfoV0`) that the
/// reference page is made from.
struct DumpedTool: Decodable {
    var command: DumpedCommand
}

struct DumpedCommand: Decodable {
    var commandName: String
    var abstract: String?
    var discussion: String?
    var shouldDisplay: Bool?
    var subcommands: [DumpedCommand]?
    var arguments: [DumpedArgument]?
}

struct DumpedArgument: Decodable {
    struct Name: Decodable {
        var kind: String
        var name: String
    }

    var kind: String
    var shouldDisplay: Bool
    var isOptional: Bool
    var isRepeating: Bool
    var names: [Name]?
    var preferredName: Name?
    var valueName: String?
    var defaultValue: String?
    var allValues: [String]?
    var abstract: String?
    var discussion: String?

    /// How the argument is written: `<dir>`, `--cache-dir <dir>`, `--json`.
    var spelling: String {
        let value = "<\(valueName ?? "value")>"
        let name = preferredName.map { ($0.kind == "short" ? "-" : "--") + $0.name } ?? ""
        switch kind {
        case "positional": return value + (isRepeating ? " ..." : "")
        case "flag": return name
        default: return name + " " + value
        }
    }

    /// Its place in a usage line: optional parts in brackets, repeatable ones followed by `...`.
    var usage: String {
        let written = kind != "positional" && isRepeating ? spelling + " ..." : spelling
        return isOptional ? "[\(written)]" : written
    }

    /// Help and version flags, which every command has.
    var isStandard: Bool {
        kind == "flag" && ["help", "version"].contains(preferredName?.name ?? "")
    }
}
