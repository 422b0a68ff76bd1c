import ArgumentParser
import CacheProxy
import CacheProxyServer
import CacheProxyParsing
import CacheStore
import Logging
import ServiceLifecycle
import SparseFile
import UnixSignals
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `sparsecache serve`: runs the HLS caching proxy, as a service in a swift-service-lifecycle
/// `ServiceGroup`, until SIGINT or SIGTERM shut it down gracefully.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the localhost HLS caching proxy: GET /proxy?url=<percent-encoded URL>, GET /status.",
        discussion: """
            Players use http://127.0.0.1:PORT/proxy?url=<percent-encoded http(s) URL>. Playlists come back \
            rewritten through the proxy; everything is cached in the store directory and served offline. \
            Prints "listening on http://HOST:PORT" on standard output once ready. On SIGINT or SIGTERM it stops \
            accepting connections, lets the responses in flight finish (up to --shutdown-grace seconds), saves \
            the cache's index and exits 0. A second SIGINT or SIGTERM stops it at once, cutting the responses \
            in flight, and exits 128 plus the signal's number (130 for SIGINT, 143 for SIGTERM).
            """)

    @Option(help: "The port to listen on (0 picks a free one).") var port = 9000
    @OptionGroup var cacheDirectory: CacheDirectoryOption
    @Option(name: .customLong("max-size"), parsing: .unconditional, help: ArgumentHelp(
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
    @Option(name: .customLong("mapped-memory"), help: ArgumentHelp(
        "Page-cache bytes the cache files mapped for hits may bring into memory: hits are written from the mappings, faster than sendfile on loopback; 0 sends every hit with sendfile (default 32MiB): \(SizeArgument.rule).",
        valueName: "size"), transform: SizeArgument.any)
    var mappedMemory: SizeArgument?
    @Option(name: .customLong("loopback-send-buffer"), help: ArgumentHelp(
        "The socket send buffer of a client on the same machine: small, the bytes written are still in the CPU's caches when the player reads them; 0 leaves it to the kernel (default 256KiB): \(SizeArgument.rule).",
        valueName: "size"), transform: SizeArgument.any)
    var loopbackSendBuffer: SizeArgument?
    @Option(name: .customLong("cold-read-threads"),
            help: "Threads that read cached bytes no longer in memory, so that no event loop waits for the disk; 0 reads them on the event loops (default 2).")
    var coldReadThreads: Int?
    @Option(name: .customLong("public-url"),
            help: "The URL players reach the proxy at (behind a front, on a LAN): the base of every URL written into playlists and session answers.")
    var publicURL: String?
    @Option(help: "Prometheus metrics at GET /metrics.")
    var metrics = SwitchArgument.on
    @Option(name: .customLong("access-log"), help: "One key=value line per request on standard error, at info level.")
    var accessLog = SwitchArgument.on
    @Option(name: .customLong("shutdown-grace"), help: "Seconds the responses in flight may take to finish after SIGINT or SIGTERM.")
    var shutdownGrace: Double = 10
    @Option(name: .customLong("playlist-freshness"), help: ArgumentHelp(
        "Seconds a cached multivariant playlist counts as fresh when its origin gives no Cache-Control max-age (default 600). Cached ones are served at once; stale ones are revalidated in the background.",
        valueName: "seconds"))
    var playlistFreshness: Double = 600
    @Option(name: .customLong("origin-header"), help: ArgumentHelp(
        "A header field every request to origins matching HOST-PATTERN carries, as 'HOST-PATTERN: Name: value' (repeatable; patterns as --allow-host; @FILE reads one a line from FILE, so that secrets stay off the command line). Values are never logged.",
        valueName: "rule"))
    var originHeaders: [String] = []
    @Option(name: .customLong("forward-header"), help: ArgumentHelp(
        "Forward this header field of a player's request (Cookie, Authorization, Referer, User-Agent) to the origin with the requests made for it (repeatable; none by default).",
        valueName: "name"))
    var forwardedHeaders: [String] = []
    @Flag(name: .customLong("store-no-store"),
          help: "Store responses marked Cache-Control: no-store anyway (for an app that owns its CDN); by default they are passed through.")
    var storesNoStore = false

    func validate() throws {
        for name in forwardedHeaders {
            do {
                _ = try OriginHeaderFields([(name, "")], context: "--forward-header")
            } catch {
                throw ValidationError(error.message)
            }
        }
        guard shutdownGrace >= 0, shutdownGrace <= 3600 else {
            throw ValidationError("--shutdown-grace takes 0 to 3600 seconds")
        }
        guard playlistFreshness >= 0, playlistFreshness <= 7 * 24 * 3600 else {
            throw ValidationError("--playlist-freshness takes 0 to 604800 seconds (a week)")
        }
        if let coldReadThreads, !(0...256).contains(coldReadThreads) {
            throw ValidationError("--cold-read-threads takes 0 to 256 threads")
        }
    }

    func run() async throws {
        let level = logLevel.value
        // glibc re-reads /etc/localtime for every timestamp while TZ is unset; one is logged per request.
        setenv("TZ", ":/etc/localtime", 0)
        let standardError = BufferedStandardError()
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler(label: label, stream: standardError.stream)
            handler.logLevel = level
            return handler
        }
        defer { standardError.flush() }
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
        if let maxSize, let warning = FreeSpaceWarning.text(limit: maxSize.bytes, directory: directory, cachedBytes: store.totalBytes) {
            writeToStandardError("sparsecache: \(warning)\n")
        }
        var configuration = CacheProxyConfiguration.server
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
        if let coldReadThreads { configuration.coldReadThreads = coldReadThreads }
        configuration.publicURL = publicURL
        if let mappedMemory { configuration.mappedFiles.limit = Int(clamping: mappedMemory.bytes) }
        if let loopbackSendBuffer {
            configuration.loopbackSendBuffer = loopbackSendBuffer.bytes == 0 ? nil : Int(clamping: loopbackSendBuffer.bytes)
        }
        configuration.recordsMetrics = metrics.isOn
        configuration.writesAccessLog = accessLog.isOn
        configuration.shutdownGracePeriod = .milliseconds(Int64(shutdownGrace * 1000))
        configuration.playlistFreshness = .milliseconds(Int64(playlistFreshness * 1000))
        configuration.originHeaders = try HeaderFieldArguments(originHeaders, option: "--origin-header").fieldsByHost()
        configuration.forwardedHeaders = forwardedHeaders
        configuration.storesNoStoreResponses = storesNoStore
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
        let address = ProxyAddress(host: host, port: port)
        writeToStandardOutput("listening on \(address.base)\n")
        writeToStandardOutput(ServeStartup.banner(address, store: store, hasControlToken: controlToken != nil))
        var services = ServiceGroupConfiguration(
            services: [.init(service: CacheProxyService(proxy), successTerminationBehavior: .gracefullyShutdownGroup)],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        // The proxy ends its own drain at the grace period; this only bounds the clean-up after it.
        services.maximumGracefulShutdownDuration = configuration.shutdownGracePeriod + .seconds(10)
        // Listening before the group does, so that its first signal is counted here too.
        let signals = SignalWaiter.arrivals(of: [SIGINT, SIGTERM])
        do {
            try await withThrowingDiscardingTaskGroup { tasks in
                tasks.addTask { await standardError.flushPeriodically() }
                tasks.addTask { await SecondSignalStop.watch(signals, logger: logger) { standardError.flush() } }
                try await ServiceGroup(configuration: services).run()
                tasks.cancelAll()
            }
        } catch {
            try? store.close()
            throw CommandFailure(code: .failure, message: "the proxy stopped: \(error)")
        }
        do {
            try store.close()
        } catch {
            throw CommandFailure(code: .failure, message: error.message)
        }
    }
}
