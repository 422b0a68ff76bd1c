import ArgumentParser
import CacheProxy

/// The `sparsecache` command line: inspect, verify and repair cache files, manage stores,
/// work with HLS playlists and run the caching proxy.
struct SparseCacheCommand: AsyncParsableCommand {
    /// What every command shares: the default store directory and the size rule.
    static let overview = """
        Store commands work on the per-user cache directory that `serve` uses ($XDG_CACHE_HOME/sparsecache, or \
        ~/.cache/sparsecache) unless given a directory, as their first operand or with --cache-dir.

        Sizes (--max-size, --to) are \(SizeArgument.rule).
        """

    static let configuration = CommandConfiguration(
        commandName: "sparsecache",
        abstract: "Inspect, verify and repair SparseCache files, stores and HLS playlists.",
        discussion: overview + "\n\nExit status:\n"
            + CommandFailure.Code.documented.map { "  \($0.0.rawValue)  \($0.1)" }.joined(separator: "\n"),
        version: "sparsecache \(CacheProxy.version)",
        subcommands: [
            FileCommand.self,
            InspectCommand.self,
            VerifyCommand.self,
            RepairCommand.self,
            CompactCommand.self,
            CreateCommand.self,
            PutCommand.self,
            GetCommand.self,
            ListCommand.self,
            StatsCommand.self,
            EvictCommand.self,
            RemoveCommand.self,
            PinCommand.self,
            UnpinCommand.self,
            ClearCommand.self,
            HLSCommand.self,
            DASHCommand.self,
            ServeCommand.self,
            FetchCommand.self,
            URLCommand.self,
            HelpReferenceCommand.self,
        ]
    )
}
