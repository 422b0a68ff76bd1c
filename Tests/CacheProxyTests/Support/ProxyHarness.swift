import AsyncHTTPClient
import CacheProxy
import CacheProxyServer
import CacheStore
import Logging
import NIOCore
import NIOHTTP1
import SparseFile
import TestSupport

/// A proxy over a fresh store in a temporary directory, a test origin, and a real HTTP client,
/// all on 127.0.0.1, started for one test and stopped after it.
struct ProxyHarness {
    let origin: TestOrigin
    let proxy: CacheProxy
    let store: CacheStore
    let client: HTTPClient
    let port: Int

    struct Response {
        var status: Int
        var headers: HTTPHeaders
        var body: [UInt8]
    }

    /// Runs `body` against a proxy over a store in `directory` (a fresh one by default).
    static func run(
        origin: TestOrigin? = nil,
        configure: (inout CacheProxyConfiguration) -> Void = { _ in },
        storeSize: UInt64 = 256 << 20,
        directory: TemporaryDirectory = TemporaryDirectory("proxy"),
        storeDirectory: String? = nil,
        systemCalls: SystemCalls = .live,
        logger: Logger? = nil,
        _ body: (ProxyHarness) async throws -> Void
    ) async throws {
        let store = try CacheStore.open(at: storeDirectory ?? directory.path, configuration: CacheStoreConfiguration(
            maximumSize: storeSize, fileOptions: SparseFileOptions(SparseFileOptions(durability: .none), systemCalls: systemCalls)))
        var configuration = CacheProxyConfiguration.server
        configuration.port = 0
        configuration.threads = 2
        configuration.breaker = CircuitBreakerConfiguration(failureThreshold: 3, coolDown: .milliseconds(300))
        configure(&configuration)
        let logger = logger ?? {
            var logger = Logger(label: "test.proxy")
            logger.logLevel = .error
            return logger
        }()
        let proxy = try CacheProxy(store: store, configuration: configuration, logger: logger)
        let origin = if let origin { origin } else { try await TestOrigin.start() }
        var clientConfiguration = HTTPClient.Configuration()
        clientConfiguration.decompression = .disabled
        clientConfiguration.timeout = .init(connect: .seconds(5), read: .seconds(20))
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: clientConfiguration)
        do {
            try await withThrowingTaskGroup { group in
                group.addTask { try await proxy.run() }
                let port = try await proxy.start()
                do {
                    try await body(ProxyHarness(origin: origin, proxy: proxy, store: store, client: client, port: port))
                } catch {
                    proxy.shutdown()
                    throw error
                }
                proxy.shutdown()
                try await group.waitForAll()
            }
        } catch {
            try? await client.shutdown()
            await origin.stop()
            throw error
        }
        try await client.shutdown()
        await origin.stop()
        try store.close()
    }

    /// The proxy as a player names it in `Host`.
    var host: String { "127.0.0.1:\(port)" }

    /// The proxy URL of an origin path.
    func proxyURL(_ path: String) -> String {
        proxyURL(forOrigin: origin.url(path))
    }

    func proxyURL(forOrigin url: String) -> String {
        "http://127.0.0.1:\(port)/proxy?url=" + percentEncoded(url)
    }

    /// Sends a request through the proxy and reads the whole response.
    func get(_ path: String, method: HTTPMethod = .GET, headers: [(String, String)] = []) async throws -> Response {
        try await fetch(proxyURL(path), method: method, headers: headers)
    }

    func fetch(_ url: String, method: HTTPMethod = .GET, headers: [(String, String)] = []) async throws -> Response {
        var request = HTTPClientRequest(url: url)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await client.execute(request, timeout: .seconds(30))
        var body: [UInt8] = []
        for try await chunk in response.body { body.append(contentsOf: chunk.readableBytesView) }
        return Response(status: Int(response.status.code), headers: response.headers, body: body)
    }
}

func percentEncoded(_ value: String) -> String {
    var output = ""
    for byte in value.utf8 {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            output.append(Character(Unicode.Scalar(byte)))
        default:
            let hex = String(byte, radix: 16, uppercase: true)
            output += "%" + (hex.count == 1 ? "0" + hex : hex)
        }
    }
    return output
}
