import ArgumentParser
import CacheStore

/// `[DIR] KEY` (or `--cache-dir DIR KEY`), which the entry commands share: the store defaults
/// to the per-user cache directory `serve` uses.
struct StoreEntryArguments: ParsableArguments {
    @Argument(help: ArgumentHelp(
        "The cache key (a URL, normalized as the proxy does), after the store directory when it is given here.",
        valueName: "dir-and-key"))
    var operands: [String] = []
    @OptionGroup var cacheDirectory: CacheDirectoryOption

    func validate() throws {
        guard (1...2).contains(operands.count) else {
            throw ValidationError("give the cache key, or the store directory and the key (\(operands.count) operands given)")
        }
        _ = try cacheDirectory.path(operand: directoryOperand)
    }

    private var directoryOperand: String? { operands.count == 2 ? operands[0] : nil }

    /// The store directory.
    var directory: String { (try? cacheDirectory.path(operand: directoryOperand)) ?? cacheDirectory.path }

    /// The key as given.
    var rawKey: String { operands.last ?? "" }

    /// The key as the store knows it.
    var key: String { CacheKey.normalizedURL(rawKey) }

    /// The usage line of an entry command: `sparsecache NAME [DIR] KEY` and what follows.
    static func usage(_ command: String, _ rest: String = "") -> String {
        "sparsecache \(command) [--cache-dir <dir>] [<dir>] <key>" + (rest.isEmpty ? "" : " " + rest)
    }
}
