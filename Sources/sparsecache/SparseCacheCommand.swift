import ArgumentParser

/// The `sparsecache` command line: inspect, verify and repair cache files, manage stores,
/// work with HLS playlists and run the caching proxy.
struct SparseCacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sparsecache",
        abstract: "Inspect, verify and repair SparseCache files, stores and HLS playlists.",
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
            ServeCommand.self,
            FetchCommand.self,
        ]
    )
}
