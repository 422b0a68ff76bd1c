import ArgumentParser
import CacheProxy
import CacheStore
import Logging
import SparseFile
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `sparsecache serve`: runs the HLS caching proxy until SIGINT or SIGTERM.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the localhost HLS caching proxy: GET /proxy?url=<percent-encoded URL>, GET /status.",
        discussion: """
            Players use http://127.0.0.1:PORT/proxy?url=<percent-encoded http(s) URL>. Playlists come back \
            rewritten through the proxy; everything is cached in the store directory and served offline. \
            Prints "listening on http://HOST:PORT" on standard output once ready; stops cleanly on SIGINT or SIGTERM.
            """)

    @Option(help: "The port to listen on (0 picks a free one).") var port = 9000
    @OptionGroup var cacheDirectory: CacheDirectoryOption
    @Option(name: .customLong("max-size"), help: ArgumentHelp(
        "The cache size limit, at least 1 MiB (default: the store's, or 1GiB for a new one): \(SizeArgument.rule).", valueName: "size"),
            transform: SizeArgument.limit)
    var maxSize: SizeArgument?
    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Flag(name: .customLong("allow-non-loopback"), help: "Allow --host to be an address other than loopback.")
    var allowNonLoopback = false
    @Option(name: .customLong("allow-host"), help: "Only fetch from this origin host (repeatable; *.example.com matches subdomains).")
    var allowedHosts: [String] = []
    @Option(name: .customLong("allow-request-host"),
            help: "Also answer requests that name the proxy HOST or HOST:PORT in Host (repeatable; others get 421).")
    var allowedRequestHosts: [String] = []
    @Option(name: .customLong("allow-origin"),
            help: "Let pages from this web origin (https://app.example) use the proxy: CORS headers, state changes (repeatable).")
    var allowedOrigins: [String] = []
    @Option(name: .customLong("control-token"),
            help: "Require Authorization: Bearer TOKEN on the control routes (/status, /prefetch, /sessions, ...; not /proxy).")
    var controlToken: String?
    @Option(name: .customLong("segment-concurrency"), help: "Segment fetches that may run at once.")
    var segmentConcurrency = 32
    @Option(name: .customLong("express-concurrency"), help: "Playlist, init segment, key and probe fetches that may run at once.")
    var expressConcurrency = 16
    @Option(help: "Event loop threads (default: one per core).")
    var threads: Int?
    @Option(help: "When cache files are synchronized to disk. A cache can afford none: a block lost to a power cut fails its checksum and is fetched again.")
    var durability = DurabilityArgument(.none)
    @Option(name: .customLong("log-level"), help: "The least important messages logged.")
    var logLevel = LogLevelArgument(.info)

    func run() async throws {
        let level = logLevel.value
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "sparsecache.serve")
        let directory = cacheDirectory.path
        let createdDirectory = try DefaultCacheDirectory.create(directory)
        let store: CacheStore
        do {
            store = try CacheStore.open(at: directory, configuration: CacheStoreConfiguration(
                maximumSize: maxSize?.bytes, fileOptions: SparseFileOptions(durability: durability.value)))
        } catch {
            throw CommandFailure(code: .failure, message: error.message)
        }
        var configuration = CacheProxyConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.allowsNonLoopback = allowNonLoopback
        configuration.allowedHosts = allowedHosts.isEmpty ? nil : allowedHosts
        configuration.security.allowedRequestHosts = allowedRequestHosts
        configuration.security.allowedOrigins = allowedOrigins
        configuration.security.controlToken = controlToken
        configuration.segmentConcurrency = segmentConcurrency
        configuration.expressConcurrency = expressConcurrency
        if let threads { configuration.threads = threads }
        let proxy: CacheProxy
        do {
            proxy = try CacheProxy(store: store, configuration: configuration, logger: logger)
        } catch {
            try? store.close()
            ServeStartup.removeCreatedDirectory(createdDirectory)
            throw CommandFailure(code: .usage, message: error.message)
        }
        let port: Int
        do {
            port = try await proxy.start()
        } catch {
            try? store.close()
            ServeStartup.removeCreatedDirectory(createdDirectory)
            throw CommandFailure(code: .failure, message: ServeStartup.bindFailure(error))
        }
        writeToStandardOutput("listening on http://\(host.contains(":") ? "[\(host)]" : host):\(port)\n")
        writeToStandardOutput(ServeStartup.banner(ProxyAddress(host: host, port: port), store: store))
        try await withThrowingTaskGroup { group in
            group.addTask { try await proxy.run() }
            group.addTask {
                if let signal = await SignalWaiter.wait(for: [SIGINT, SIGTERM]) {
                    logger.info("stopping", metadata: ["signal": "\(signal)"])
                    proxy.shutdown()
                }
            }
            // run() returns once shut down; the signal waiter then has nothing left to wait for.
            try await group.next()
            group.cancelAll()
        }
        do {
            try store.close()
        } catch {
            throw CommandFailure(code: .failure, message: error.message)
        }
    }
}
