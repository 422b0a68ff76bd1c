/// How far an ``OfflineDownloader`` run has come, reported after every resource.
public struct DownloadProgress: Sendable, Hashable {
    /// Resources (playlists, init sections, keys, segments, or the one file) done so far.
    public var resourcesDone: Int
    /// All resources known so far (grows while playlists are read).
    public var resourcesTotal: Int
    /// Segments done and known.
    public var segmentsDone: Int
    public var segmentsTotal: Int
    /// Bytes fetched from the origin by this run (bytes already cached cost nothing).
    public var bytesFetched: UInt64
    /// Seconds since the run started.
    public var elapsedSeconds: Double

    /// Bytes per second fetched so far.
    public var bytesPerSecond: Double { elapsedSeconds > 0 ? Double(bytesFetched) / elapsedSeconds : 0 }

    /// Seconds left, estimated from the pace of resources done; nil until one is done.
    public var estimatedSecondsLeft: Double? {
        guard resourcesDone > 0, resourcesTotal >= resourcesDone else { return nil }
        return elapsedSeconds / Double(resourcesDone) * Double(resourcesTotal - resourcesDone)
    }
}

/// What an ``OfflineDownloader`` run did.
public struct DownloadReport: Sendable, Hashable {
    public var resources: Int
    public var segments: Int
    public var bytesFetched: UInt64
    /// The cache keys of everything the presentation needs (pinned with ``OfflineDownloader/Options/pin``).
    public var keys: [String]
}
