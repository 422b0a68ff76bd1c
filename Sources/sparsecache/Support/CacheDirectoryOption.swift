import ArgumentParser

/// `--cache-dir DIR`, shared by every command that works on a store: the store directory,
/// by default the per-user one `serve` uses.
struct CacheDirectoryOption: ParsableArguments {
    @Option(name: .customLong("cache-dir"), help: ArgumentHelp(
        "The store directory (default: $XDG_CACHE_HOME/sparsecache or ~/.cache/sparsecache).", valueName: "dir"))
    var explicitPath: String?

    /// The directory to use: the one given, or the per-user default.
    var path: String { explicitPath ?? DefaultCacheDirectory.path }

    /// The directory of a command that also takes it as an operand: the operand, else
    /// `--cache-dir`, else the per-user default. Two different directories are a usage error.
    func path(operand: String?) throws -> String {
        guard let operand else { return path }
        if let explicitPath, explicitPath != operand {
            throw ValidationError("two store directories given, \(operand) and --cache-dir \(explicitPath); give one")
        }
        return operand
    }
}
