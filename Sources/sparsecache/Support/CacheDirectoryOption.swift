import ArgumentParser

/// `--cache-dir DIR`, shared by the commands that default to the per-user cache directory.
struct CacheDirectoryOption: ParsableArguments {
    @Option(name: .customLong("cache-dir"), help: "The store directory (default: $XDG_CACHE_HOME/sparsecache or ~/.cache/sparsecache).")
    var explicitPath: String?

    /// The directory to use: the one given, or the per-user default.
    var path: String { explicitPath ?? DefaultCacheDirectory.path }
}
