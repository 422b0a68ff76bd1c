public import CodedErrors

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

    /// The presentation lists more segments than `OfflineDownloader.Options.maximumSegments`.
    public static var tooManySegments: Self { Self(rawValue: "too-many-segments") }

    /// The manifest cannot be played through the proxy: an MPD whose segments cannot be
    /// listed (a malformed template, an unbounded timeline, a bad `sidx`) or that the proxy
    /// would refuse to serve (a remote element). The message names the position.
    public static var unplayable: Self { Self(rawValue: "unplayable") }
}
