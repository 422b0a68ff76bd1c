/// What `GET /downloads/ID` reports about a download the proxy runs, as a value and as JSON.
/// Absent values are `null`, never left out.
public struct DownloadStatus: Sendable, Hashable, Codable {
    public var id: String
    public var url: String
    /// `queued`, `running`, `done`, `failed` or `cancelled`.
    public var state: State
    /// Resources (playlists, init sections, keys, segments, or the one file) known and done.
    public var resources: Int
    public var resourcesDone: Int
    public var segments: Int
    public var segmentsDone: Int
    /// Bytes fetched from the origin by this download.
    public var bytes: UInt64
    /// Seconds since the download started running; 0 while queued.
    public var elapsedSeconds: Double
    /// Why it failed; null otherwise.
    @EncodedAsNull public var error: String?

    /// The progress as an ``OfflineDownloader`` run reports it (for a client that shows the same
    /// progress bar whether it downloads itself or through a proxy).
    public var progress: DownloadProgress {
        DownloadProgress(resourcesDone: resourcesDone, resourcesTotal: resources, segmentsDone: segmentsDone, segmentsTotal: segments,
                         bytesFetched: bytes, elapsedSeconds: elapsedSeconds)
    }
}
