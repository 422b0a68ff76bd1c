public import CodedErrors

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

/// Why an ``OfflineDownloader`` run did not complete.
public struct DownloadError: CodedError {
    /// Why, in a word. Codes are stable strings; errors compare by them.
    public typealias Code = ErrorCode<DownloadError>

    /// Why, in a word.
    public var code: Code
    public var message: String
    /// The resources that could not be fetched, with the reason.
    public var failures: [String]

    /// An error with the resources that failed and why (`url: reason`).
    public init(code: Code = .fetchFailed, message: String, failures: [String] = []) {
        self.code = code
        self.message = message
        self.failures = failures
    }

    /// Always nil: the message and ``failures`` name the resources.
    public var location: String? { nil }

    /// The message, then the first five failures.
    public var description: String {
        failures.isEmpty ? message : message + ": " + failures.prefix(5).joined(separator: "; ")
            + (failures.count > 5 ? "; and \(failures.count - 5) more" : "")
    }
}

extension ErrorCode where Domain == DownloadError {
    /// A resource could not be fetched (after every attempt), or the URL is not http(s).
    public static var fetchFailed: Self { Self(rawValue: "fetch-failed") }

    /// The presentation is live (an HLS live playlist, a dynamic MPD): it never ends.
    public static var live: Self { Self(rawValue: "live") }

    /// The presentation lists more segments than ``OfflineDownloader/Options/maximumSegments``.
    public static var tooManySegments: Self { Self(rawValue: "too-many-segments") }

    /// The manifest cannot be played through the proxy: an MPD whose segments cannot be
    /// listed (a malformed template, an unbounded timeline, a bad `sidx`) or that the proxy
    /// would refuse to serve (a remote element). The message names the position.
    public static var unplayable: Self { Self(rawValue: "unplayable") }
}
