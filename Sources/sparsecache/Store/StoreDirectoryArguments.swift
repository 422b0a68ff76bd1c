import ArgumentParser

/// `[DIR]` or `--cache-dir DIR`: the store a store-wide command works on, by default the
/// per-user cache directory `serve` uses.
struct StoreDirectoryArguments: ParsableArguments {
    @Argument(help: ArgumentHelp("The store directory (default: --cache-dir's).", valueName: "dir"))
    var operand: String?
    @OptionGroup var cacheDirectory: CacheDirectoryOption

    func validate() throws { _ = try cacheDirectory.path(operand: operand) }

    /// The store directory.
    var path: String { (try? cacheDirectory.path(operand: operand)) ?? cacheDirectory.path }
}
