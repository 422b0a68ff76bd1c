public import CacheStore
public import CacheProxyParsing
import HLS
public import Logging
import NIOCore
import Synchronization

/// A localhost HTTP caching proxy for video: a player points at it and gets instant starts
/// and offline replay.
///
/// `GET|HEAD /proxy?url=<percent-encoded http(s) URL>` serves the URL through a ``CacheStore``:
/// playlists are fetched, stored raw and served rewritten so every URI in them comes back
/// through the proxy; everything else is served as bytes with full `Range` support, fetching
/// only what the cache lacks and streaming it to the client while it is stored. `GET /status`
/// reports the proxy's state as JSON (``ProxyStatus``).
///
/// ```swift
/// import CacheProxyURLSession
///
/// let store = try CacheStore.open(at: cacheDirectory)
/// let proxy = try CacheProxy(store: store, configuration: .app)    // origins through URLSession
/// try await withThrowingDiscardingTaskGroup { group in
///     group.addTask { try await proxy.run() }
///     _ = try await proxy.start()
///     player.play(proxy.proxyURL(for: "https://cdn.example.com/master.m3u8"))
/// }
/// ```
///
/// A proxy serves once: ``run()`` returns after ``shutdown()`` or ``shutdownGracefully()`` (or
/// when its task is cancelled) and a stopped proxy cannot be started again. The
/// `CacheProxyServer` product runs it as a swift-service-lifecycle `Service`
/// (`CacheProxyService`), where a `ServiceGroup`'s graceful shutdown (SIGTERM) stops it
/// gracefully, beside the application's other services.
public final class CacheProxy: Sendable {
    /// The version reported by `/status`.
    public static let version = "1.0"

    public let configuration: CacheProxyConfiguration
    public let store: CacheStore
    private let logger: Logger
    private let originClient: OriginClientKind
    private let lifecycle = Mutex(Lifecycle.idle)

    private enum Lifecycle {
        case idle
        /// One caller binds; others wait here for it to finish.
        case binding(waiters: [CheckedContinuation<Void, Never>])
        case listening(Running)
        case serving(Running)
        case stopped
    }

    /// What exists while the proxy runs: its threads, clients and listening socket.
    private struct Running: Sendable {
        var context: ProxyContext
        var listener: ProxyServer.Listener
        var accepted: ProxyServer.Accepted
        var port: Int
    }

    /// Makes a proxy over a writable store. Nothing listens, and no thread is started, until
    /// ``start()`` or ``run()``.
    ///
    /// - Throws: `CacheProxyError.Code.invalidConfiguration` for a read-only store, no
    ///   ``CacheProxyConfiguration/originClient``, a host
    ///   that is not a loopback address without ``CacheProxyConfiguration/allowsNonLoopback``
    ///   or with an ``OriginClientKind`` that does not check its connections' peers,
    ///   a ``CacheProxyConfiguration/publicURL`` that is not a plain http(s) URL, or limits
    ///   below 1.
    public init(store: CacheStore, configuration: CacheProxyConfiguration,
                logger: Logger = Logger(label: "sparsecache.proxy")) throws(CacheProxyError) {
        guard store.isWritable else {
            throw CacheProxyError(.invalidConfiguration, "the proxy needs a store opened for writing")
        }
        guard configuration.allowsNonLoopback || Self.isLoopback(configuration.host) else {
            throw CacheProxyError(.invalidConfiguration,
                                  "\(configuration.host) is not a loopback address; allow it explicitly to listen there")
        }
        let originClient = try configuration.chosenOriginClient()
        guard originClient.checksPeers || Self.isLoopback(configuration.host) else {
            throw CacheProxyError(.invalidConfiguration,
                                  "the origin client \(originClient.name) cannot check where its connections lead, "
                                      + "which a proxy listening beyond loopback needs; use .asyncHTTPClient (CacheProxyServer)")
        }
        if let publicURL = configuration.publicURL, PublicAddress.base(publicURL) == nil {
            throw CacheProxyError(.invalidConfiguration, """
                the public URL \(publicURL) is not an http(s) URL with a plain host name and no query, \
                such as https://video.example.com or http://192.168.1.20:9000
                """)
        }
        guard configuration.segmentConcurrency >= 1, configuration.expressConcurrency >= 1, configuration.responseChunkSize >= 1,
              configuration.threads >= 1, configuration.coldReadThreads >= 0, (0...65535).contains(configuration.port) else {
            throw CacheProxyError(.invalidConfiguration,
                                  "concurrency, chunk size and threads must be at least 1, cold-read threads at least 0, the port 0...65535")
        }
        _ = try configuration.security.requestPolicy(publicURL: configuration.publicURL)
        self.configuration = configuration
        self.store = store
        self.logger = logger
        self.originClient = originClient
    }

    /// Starts the proxy's threads, binds the listening socket (once) and returns the port;
    /// ``run()`` serves it.
    ///
    /// - Throws: `CacheProxyError.Code.addressInUse` when another program has the port,
    ///   `CacheProxyError.Code.bindFailed` when the address cannot be bound otherwise,
    ///   `CacheProxyError.Code.alreadyStopped` after a shutdown.
    @discardableResult
    public func start() async throws(CacheProxyError) -> Int {
        while true {
            enum Step { case bind, wait, done(Int), stopped }
            let step = lifecycle.withLock { state -> Step in
                switch state {
                case .idle:
                    state = .binding(waiters: [])
                    return .bind
                case .binding: return .wait
                case .listening(let running), .serving(let running): return .done(running.port)
                case .stopped: return .stopped
                }
            }
            if case .wait = step {
                // Binding takes milliseconds and always ends, so a second caller waits for it.
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let registered = lifecycle.withLock { state -> Bool in
                        guard case .binding(var waiters) = state else { return false }
                        waiters.append(continuation)
                        state = .binding(waiters: waiters)
                        return true
                    }
                    if !registered { continuation.resume() }
                }
            }
            switch step {
            case .wait: continue
            case .done(let port): return port
            case .stopped: throw CacheProxyError(.alreadyStopped, "the proxy was shut down")
            case .bind: break
            }
            let context = ProxyContext(store: store, configuration: configuration, originClient: originClient,
                                       threads: configuration.threads, logger: logger)
            let listener: ProxyServer.Listener
            let accepted = ProxyServer.Accepted()
            do {
                listener = try await ProxyServer.bind(context: context, group: context.group, accepted: accepted)
            } catch {
                await context.shutdown()
                finishBinding(.idle)
                throw BindFailure.error(error, host: configuration.host, port: configuration.port)
            }
            let port = listener.channel.localAddress?.port ?? configuration.port
            context.addresses.listeningPort = port
            context.upstream.originGuard.listening(on: port)
            // Other processes on this store (`sparsecache fetch`) hand their work to this proxy.
            do {
                try store.setControlAddress(context.addresses.baseURL(for: nil))
            } catch {
                logger.warning("could not record the proxy's address beside the store", metadata: ["error": "\(error)"])
            }
            finishBinding(.listening(Running(context: context, listener: listener, accepted: accepted, port: port)))
            logger.info("listening", metadata: ["address": "http://\(configuration.host):\(port)", "cache": "\(store.directory)"])
            if !Self.isLoopback(configuration.host) {
                logger.warning("listening on a non-loopback address: anyone who can reach it can make this proxy fetch URLs",
                               metadata: ["host": "\(configuration.host)"])
            }
            return port
        }
    }

    /// Leaves the binding state and wakes the callers that waited for it.
    private func finishBinding(_ next: Lifecycle) {
        let waiters = lifecycle.withLock { state -> [CheckedContinuation<Void, Never>] in
            defer { state = next }
            guard case .binding(let waiters) = state else { return [] }
            return waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Serves until ``shutdown()`` or ``shutdownGracefully()`` is called or the calling task is
    /// cancelled; then closes every connection, cancels
    /// the fetches in flight and stops its threads.
    public func run() async throws {
        try await start()
        let running = try lifecycle.withLock { state throws(CacheProxyError) -> Running in
            guard case .listening(let running) = state else {
                throw CacheProxyError(.alreadyStopped, "the proxy is already serving or was shut down")
            }
            state = .serving(running)
            return running
        }
        let listener = running.listener
        let context = running.context
        let handler = ConnectionHandler(context: context, router: RequestRouter(context: context))
        async let accessLogWritten: Void? = context.hits.accessLog?.run()
        let idleMappingsReleased = Task { await context.hits.mappedFiles.releaseIdle(every: configuration.mappedFiles.idleRelease) }
        let accepted = running.accepted
        // The accept loop runs in a task of its own, which cancelling `run()` does not cancel: it
        // ends when the listener closes, after every connection accepted until then has been
        // handed to a task that closes it. Cancelled, the loop would drop the connections still
        // queued for it without closing them (SwiftNIO traps on such a connection).
        let accepting = Task {
            try await withThrowingDiscardingTaskGroup { connections in
                try await accepted.serveAll(from: listener, in: &connections) { await handler.serve($0) }
                // The listener is closed: a graceful shutdown lets the responses in flight
                // finish first; then the connections still open are ended.
                if context.connections.isDraining {
                    await context.connections.waitUntilClosed(within: configuration.shutdownGracePeriod)
                }
                connections.cancelAll()
            }
        }
        do {
            try await withTaskCancellationHandler {
                try await accepting.value
            } onCancel: {
                listener.channel.close(promise: nil)
            }
        } catch {
            logger.debug("listener ended", metadata: ["error": "\(error)"])
        }
        lifecycle.withLock { $0 = .stopped }
        running.context.addresses.listeningPort = nil
        try? store.setControlAddress(nil)
        idleMappingsReleased.cancel()
        await idleMappingsReleased.value
        await context.shutdown()
        _ = await accessLogWritten
        logger.info("stopped")
    }

    /// Stops accepting connections and lets every connection finish the responses it owes, for
    /// at most ``CacheProxyConfiguration/shutdownGracePeriod``; ``run()`` then ends the
    /// connections still open and returns. Idle connections close at once, and the proxy's own
    /// background work (session buffering, prefetching, downloads) is cancelled at once, keeping
    /// what it stored. In a `ServiceGroup` (`CacheProxyService`), its graceful shutdown calls this.
    public func shutdownGracefully() {
        guard let running else { return }
        logger.info("shutting down: no new connections, the responses in flight may finish",
                    metadata: ["grace": "\(configuration.shutdownGracePeriod)"])
        let shutdown = GracefulShutdown(context: running.context, grace: configuration.shutdownGracePeriod, logger: logger)
        running.context.connections.beginDraining { await shutdown.begin() }
        running.listener.channel.close(promise: nil)
    }

    /// Stops accepting connections; ``run()`` then ends the open ones at once and returns.
    public func shutdown() {
        let listener = lifecycle.withLock { state -> ProxyServer.Listener? in
            switch state {
            case .listening(let running), .serving(let running): running.listener
            case .idle, .binding, .stopped: nil
            }
        }
        listener?.channel.close(promise: nil)
    }

    private var running: Running? {
        lifecycle.withLock { state in
            switch state {
            case .listening(let running), .serving(let running): running
            case .idle, .binding, .stopped: nil
            }
        }
    }

    /// The port the proxy listens on, while it does.
    public var port: Int? { running?.context.addresses.listeningPort }

    /// Whether the proxy is listening.
    public var isRunning: Bool { port != nil }

    /// The URL a player should use for `originURL`: `http://127.0.0.1:PORT/proxy?url=<encoded>`
    /// while the proxy runs; `originURL` itself when it does not (so playback still works,
    /// uncached), or when the URL is not one the proxy would fetch (another scheme, a host off
    /// the allow-list).
    public func proxyURL(for originURL: String) -> String {
        guard let context = running?.context, let origin = try? OriginURL(parsing: originURL),
              context.fetching.allows(origin) else { return originURL }
        return context.addresses.proxyEndpoint(for: nil).url(for: originURL)
    }

    /// Warms the start of the videos of a feed, replacing any list given before (the user
    /// scrolled); see ``PrefetchRequest``. Returns the queue; nil when the proxy is not running.
    @discardableResult
    public func prefetch(_ request: PrefetchRequest) -> PrefetchStatus? {
        guard let context = running?.context else { return nil }
        return context.prefetch.replace(with: request, environment: context.fetching)
    }

    /// Downloads a whole presentation (or file) into the cache while the proxy serves, as
    /// `sparsecache fetch` does; see ``DownloadRequest``. Returns its state (poll it with
    /// ``downloadStatus(_:)``); nil when the proxy is not running.
    @discardableResult
    public func download(_ request: DownloadRequest) -> DownloadStatus? {
        guard let context = running?.context else { return nil }
        return context.downloads.start(request, environment: context.fetching)
    }

    /// A download's state; nil for an unknown ID or when the proxy is not running.
    public func downloadStatus(_ id: String) -> DownloadStatus? {
        running?.context.downloads.status(id)
    }

    /// Cancels a download; what it stored stays. Nil for an unknown ID.
    @discardableResult
    public func cancelDownload(_ id: String) -> DownloadStatus? {
        running?.context.downloads.cancel(id)
    }

    /// Opens a playback session (see ``PlaybackSession``): loads what it plays, locks its
    /// quality, and starts buffering as `request` asks.
    ///
    /// - Throws: `CacheProxyError.Code.notRunning` while the proxy is not running,
    ///   `CacheProxyError.Code.invalidRequest` for a presentation that cannot be played as
    ///   asked (not a playlist, a multivariant playlist in a virtual playlist without a quality,
    ///   a live or I-frame-only part, a host off the allow-list, a URL the proxy must not
    ///   fetch), `CacheProxyError.Code.limitReached` when
    ///   ``CacheProxyConfiguration/Limits/maximumOpenSessions`` are open,
    ///   `CacheProxyError.Code.originFailed` when a playlist can be neither fetched nor read
    ///   from the cache (whatever the origin answered: its 403 too),
    ///   `CacheProxyError.Code.alreadyStopped` while the proxy shuts down.
    public func openSession(_ request: PlaybackSessionRequest) async throws(CacheProxyError) -> PlaybackSession {
        guard let context = running?.context else { throw CacheProxyError(.notRunning, "the proxy is not running") }
        do {
            let engine = try await context.sessions.open(request, base: context.addresses.baseURL(for: nil), environment: context.fetching)
            return PlaybackSession(engine: engine, registry: context.sessions)
        } catch {
            throw CacheProxyError(error)
        }
    }

    /// Replaces the header fields every origin request carries, per origin host pattern (as
    /// ``CacheProxyConfiguration/originHeaders``, which it overrides), from the next request on:
    /// for tokens and signed cookies that expire while the proxy runs.
    ///
    /// - Throws: `CacheProxyError.Code.notRunning` while the proxy is not running (set
    ///   ``CacheProxyConfiguration/originHeaders`` before it starts).
    public func setOriginHeaders(_ headers: [String: OriginHeaderFields]) throws(CacheProxyError) {
        guard let context = running?.context else { throw CacheProxyError(.notRunning, "the proxy is not running") }
        context.upstream.setOriginHeaders(headers)
    }

    /// Cancels all prefetching; nil when the proxy is not running.
    @discardableResult
    public func cancelPrefetch() -> PrefetchStatus? {
        running?.context.prefetch.cancelAll()
    }

    /// The state `GET /status` reports; nil while the proxy is not running.
    public var status: ProxyStatus? { running?.context.statusReporter.status }

    /// The store's management, through the running proxy when it runs (CacheProxy+StoreControl).
    var storeControl: StoreControl { StoreControl(store: store, hits: running?.context.hits) }
}
