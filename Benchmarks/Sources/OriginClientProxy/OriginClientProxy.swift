import CacheProxy
import CacheProxyServer
import CacheProxyURLSession
import CacheStore
import Dispatch
import Logging
import SparseFile
#if canImport(Glibc)
import Glibc
#endif

/// A proxy on 127.0.0.1 with the origin client named on the command line, for
/// Benchmarks/proxy/origin-clients.sh: `sparsecache serve` always uses AsyncHTTPClient and must
/// not link FoundationNetworking, so the URLSession client is measured through this instead.
///
/// Usage: OriginClientProxy urlSession|asyncHTTPClient CACHE_DIR
/// Prints the port it listens on, alone on one line, and serves until SIGTERM or SIGINT; then
/// it shuts down (responses in flight may finish) and closes the store. Everything but the
/// origin client is the configuration's default, with metrics and the access log off (the
/// script times misses, not logging); the store is written as `sparsecache serve` writes it
/// by default (no fsync), so that its misses compare with bench-proxy.sh's through the CLI.
@main
enum OriginClientProxy {
    static func main() async {
        let arguments = CommandLine.arguments.dropFirst()
        guard arguments.count == 2, let client = arguments.first.flatMap(originClient(named:)), let directory = arguments.last else {
            fail("usage: OriginClientProxy urlSession|asyncHTTPClient CACHE_DIR")
        }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .warning
            return handler
        }
        var configuration = CacheProxyConfiguration()
        configuration.originClient = client
        configuration.port = 0
        configuration.recordsMetrics = false
        configuration.writesAccessLog = false
        let store: CacheStore
        let proxy: CacheProxy
        let port: Int
        do {
            store = try CacheStore.open(at: directory, configuration: CacheStoreConfiguration(
                fileOptions: SparseFileOptions(durability: .none)))
            proxy = try CacheProxy(store: store, configuration: configuration)
            port = try await proxy.start()
        } catch {
            fail("OriginClientProxy: \(error)")
        }
        let signals = stopOnSignals(proxy)
        // Unbuffered: the script waits for this line while the proxy keeps running.
        writeLine(String(port), to: STDOUT_FILENO)
        do {
            try await proxy.run()
        } catch {
            fail("OriginClientProxy: the proxy stopped: \(error)")
        }
        for source in signals { source.cancel() }
        do {
            try store.close()
        } catch {
            fail("OriginClientProxy: \(error)")
        }
    }

    static func originClient(named name: String) -> OriginClientKind? {
        switch name {
        case "urlSession": .urlSession
        case "asyncHTTPClient": .asyncHTTPClient
        default: nil
        }
    }

    /// SIGTERM and SIGINT begin a graceful shutdown, after which `run()` returns.
    static func stopOnSignals(_ proxy: CacheProxy) -> [any DispatchSourceSignal] {
        [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { proxy.shutdownGracefully() }
            source.resume()
            return source
        }
    }

    static func fail(_ message: String) -> Never {
        writeLine(message, to: STDERR_FILENO)
        exit(1)
    }

    static func writeLine(_ text: String, to descriptor: Int32) {
        let line = Array((text + "\n").utf8)
        var written = 0
        while written < line.count {
            let count = line[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            written += count
        }
    }
}
