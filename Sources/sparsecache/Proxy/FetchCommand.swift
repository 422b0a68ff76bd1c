import ArgumentParser
import CacheProxy
import CacheProxyServer
import CacheProxyParsing
import CacheStore
import Logging
import SparseFile
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `sparsecache fetch URL`: downloads a whole HLS or DASH presentation or file into the store for
/// offline playback through the proxy. Running it again continues where it stopped.
struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Download a whole HLS or DASH presentation (or file) into the cache for offline playback.",
        discussion: """
            Fetches the playlists, every segment, init segment and key, and the audio and subtitle renditions \
            of the chosen variant, caching them exactly as `serve` does; afterwards the proxy plays the \
            presentation with the origin down. For a DASH MPD: in every Period, the chosen Representation \
            of each AdaptationSet (by @bandwidth or @height; every one with --all-variants), its init \
            section, sidx and every segment; a dynamic MPD, or one listing more than 100000 segments, is refused. Only what the cache lacks is fetched, so an interrupted run \
            resumes where it stopped. When a running `serve` holds the cache directory, the download is \
            handed to it and followed here.
            """)

    @Argument(help: "The presentation's (multivariant) playlist or MPD URL, or a file's URL.") var url: String
    @OptionGroup var cacheDirectory: CacheDirectoryOption
    @Option(help: "The variant to download: lowest, highest (default), a height such as 720p, or a bandwidth in bits/s (10000 or more).",
            transform: VariantArgument.parse)
    var variant: VariantArgument = .init(.highest)
    @Flag(name: .customLong("all-variants"), help: "Download every variant and rendition.")
    var allVariants = false
    @Flag(help: "Pin what was downloaded so eviction never removes it.")
    var pin = false
    @Option(help: "Fetches at once.") var concurrency = 4
    @Option(help: "Tries per resource before giving up.") var attempts = 4
    @Option(name: .customLong("control-token"), help: "The control token of the proxy that holds the cache directory, if it has one.")
    var controlToken: String?
    @Option(name: .customLong("header"), help: ArgumentHelp(
        "A header field every origin request carries, as 'Name: value' (repeatable; @FILE reads one field a line from FILE, so that secrets stay off the command line).",
        valueName: "FIELD"))
    var headers: [String] = []

    func run() async throws {
        let directory = cacheDirectory.path
        try DefaultCacheDirectory.create(directory)
        // Commit often: a run killed outright loses at most this much of each fetch in flight.
        let fileOptions = SparseFileOptions(durability: .none, autoCommitInterval: 256 * 1024)
        let store: CacheStore
        do {
            store = try CacheStore.open(at: directory, configuration: CacheStoreConfiguration(fileOptions: fileOptions))
        } catch where error.code == .locked {
            // Another process writes this store: a running proxy takes the download instead.
            try await HandedDownload(directory: directory, request: try downloadRequest(), controlToken: controlToken).run()
            return
        } catch {
            throw CommandFailure(code: .failure, message: error.message)
        }
        var logger = Logger(label: "sparsecache.fetch")
        logger.logLevel = .critical
        var options = OfflineDownloader.Options()
        options.variant = variant.value
        options.allVariants = allVariants
        options.pin = pin
        options.concurrency = max(1, concurrency)
        options.attempts = max(1, attempts)
        options.headers = try originHeaders()
        let downloader: OfflineDownloader
        do {
            downloader = try OfflineDownloader(store: store, configuration: .server, logger: logger)
        } catch {
            throw CommandFailure(code: .failure, message: error.message)
        }
        let display = ProgressDisplay()
        let (url, chosen) = (self.url, options)
        let outcome = await withTaskGroup(of: Result<DownloadReport, any Error>.self) { group in
            group.addTask {
                do {
                    return .success(try await downloader.download(url, options: chosen) { display.show($0) })
                } catch {
                    return .failure(error)
                }
            }
            group.addTask {
                // SIGINT or SIGTERM stops the download; what was fetched is committed first.
                guard let signal = await SignalWaiter.wait(for: [SIGINT, SIGTERM]) else { return .failure(CancellationError()) }
                return .failure(CommandFailure(code: .failure, message: "stopped by signal \(signal); run again to resume"))
            }
            let first = await group.next() ?? .failure(CancellationError())
            group.cancelAll()
            return first
        }
        display.finish()
        try? store.close()
        switch outcome {
        case .success(let report):
            writeToStandardOutput("fetched \(url): \(CountText.text(report.resources, "resource")), \(CountText.text(report.segments, "segment")), \(CountText.text(report.bytesFetched, "byte")) from the origin\(pin ? ", pinned" : "")\n")
        case .failure(let failure as CommandFailure):
            throw failure
        case .failure(let error as DownloadError):
            throw CommandFailure(code: .failure, message: error.description)
        case .failure(let error):
            throw CommandFailure(code: .failure, message: "\(url): \(error)")
        }
    }
}

extension FetchCommand {
    /// The download as a running proxy takes it.
    func downloadRequest() throws(CommandFailure) -> DownloadRequest {
        let origin: OriginURL
        do {
            origin = try OriginURL(parsing: url)
        } catch {
            throw CommandFailure(code: .failure, message: "\(url) is not an http(s) URL: \(error.message)")
        }
        var request = DownloadRequest(url: origin, variant: variant.value, allVariants: allVariants, pin: pin)
        request.headers = try originHeaders()
        return request
    }

    /// The `--header` fields, checked.
    func originHeaders() throws(CommandFailure) -> OriginHeaderFields {
        try HeaderFieldArguments(headers, option: "--header").fields()
    }
}

/// `lowest`, `highest`, a height such as `720p`, or a bandwidth in bits/s: the spellings a
/// session's `quality` takes (``VariantSpelling``), so `720` is refused with a hint to write `720p`.
struct VariantArgument: ExpressibleByArgument, CustomStringConvertible {
    var value: PrefetchRequest.VariantChoice
    init(_ value: PrefetchRequest.VariantChoice) { self.value = value }
    init?(argument: String) {
        guard let parsed = try? Self.parse(argument) else { return nil }
        self = parsed
    }

    /// Parses an argument; the error says what was wrong (`720`: write `720p`).
    static func parse(_ argument: String) throws -> VariantArgument {
        do {
            return VariantArgument(PrefetchRequest.VariantChoice(try VariantSpelling.quality(parsing: argument)))
        } catch {
            throw ValidationError(error.message)
        }
    }

    var description: String { value.quality.description }
    var defaultValueDescription: String { description }
}
