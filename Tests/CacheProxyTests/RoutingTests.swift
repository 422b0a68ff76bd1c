#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CacheProxy
import CacheProxyServer
import CacheStore
import SparseFile
import Testing
import TestSupport

@Suite("Routing, safety and status", .timeLimit(.minutes(2)))
struct RoutingTests {
    @Test("Hosts off the allow-list get 403 and are never contacted")
    func allowList() async throws {
        try await ProxyHarness.run(configure: { $0.allowedHosts = ["*.example.com"] }) { harness in
            harness.origin.set("/a.ts", .init([1, 2, 3]))
            let response = try await harness.get("/a.ts")
            #expect(response.status == 403)
            #expect(harness.origin.requests.isEmpty)
            #expect(harness.proxy.proxyURL(for: harness.origin.url("/a.ts")) == harness.origin.url("/a.ts"))
            #expect(harness.proxy.proxyURL(for: "https://cdn.example.com/a.ts").contains("/proxy?url=https%3A%2F%2Fcdn.example.com%2Fa.ts"))
        }
    }

    @Test("The allow-list admits listed hosts")
    func allowListAdmits() async throws {
        try await ProxyHarness.run(configure: { $0.allowedHosts = ["127.0.0.1"] }) { harness in
            harness.origin.set("/a.ts", .init([1, 2, 3]))
            let response = try await harness.get("/a.ts")
            #expect(response.body == [1, 2, 3])
        }
    }

    @Test("proxyURL(for:) points at the proxy while it runs and returns the origin URL otherwise")
    func proxyURL() async throws {
        let directory = TemporaryDirectory("proxy-url")
        let store = try CacheStore.open(at: directory.path)
        var configuration = CacheProxyConfiguration.server
        configuration.port = 0
        let proxy = try CacheProxy(store: store, configuration: configuration)
        let origin = "https://cdn.example.com/v/master.m3u8?token=a&b=1"
        #expect(proxy.proxyURL(for: origin) == origin)
        try await withThrowingTaskGroup { group in
            group.addTask { try await proxy.run() }
            let port = try await proxy.start()
            #expect(proxy.proxyURL(for: origin) == "http://127.0.0.1:\(port)/proxy?url=https%3A%2F%2Fcdn.example.com%2Fv%2Fmaster.m3u8%3Ftoken%3Da%26b%3D1")
            #expect(proxy.proxyURL(for: "ftp://x/y") == "ftp://x/y")
            #expect(proxy.proxyURL(for: "https://x/a b") == "https://x/a b", "not a URL the proxy would fetch")
            proxy.shutdown()
            try await group.waitForAll()
        }
        #expect(proxy.proxyURL(for: origin) == origin)
        #expect(!proxy.isRunning)
    }

    @Test("Concurrent starts bind once and all return the listening port", .timeLimit(.minutes(1)))
    func concurrentStarts() async throws {
        let directory = TemporaryDirectory("proxy-starts")
        let store = try CacheStore.open(at: directory.path)
        var configuration = CacheProxyConfiguration.server
        configuration.port = 0
        let proxy = try CacheProxy(store: store, configuration: configuration)
        let ports = try await withThrowingTaskGroup { group in
            for _ in 0..<8 { group.addTask { try await proxy.start() } }
            return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
        }
        #expect(ports.count == 1 && ports.first == proxy.port)
        try await withThrowingTaskGroup { group in
            group.addTask { try await proxy.run() }
            proxy.shutdown()
            try await group.waitForAll()
        }
        await #expect(throws: CacheProxyError(.alreadyStopped, "")) { try await proxy.start() }
    }

    @Test("Listening on a non-loopback address needs an explicit permission")
    func nonLoopback() throws {
        let directory = TemporaryDirectory("proxy-host")
        let store = try CacheStore.open(at: directory.path)
        var configuration = CacheProxyConfiguration.server
        configuration.host = "0.0.0.0"
        #expect(throws: CacheProxyError(.invalidConfiguration, "")) { try CacheProxy(store: store, configuration: configuration) }
        configuration.allowsNonLoopback = true
        #expect(throws: Never.self) { try CacheProxy(store: store, configuration: configuration) }
    }

    @Test("A read-only store cannot back a proxy")
    func readOnlyStore() throws {
        let directory = TemporaryDirectory("proxy-readonly")
        try CacheStore.create(at: directory.path, maximumSize: 1 << 20)
        let store = try CacheStore.open(at: directory.path, readOnly: true)
        #expect(throws: CacheProxyError(.invalidConfiguration, "")) { try CacheProxy(store: store, configuration: .server) }
    }

    @Test("GET /status reports cache size and limit, entries, hits and misses, lanes, breakers and uptime")
    func status() async throws {
        try await ProxyHarness.run { harness in
            harness.origin.set("/a.ts", .init(TestBytes(seed: 1).bytes(0, 5000)))
            _ = try await harness.get("/a.ts")
            let afterMiss = try #require(harness.proxy.status?.cache)
            #expect(afterMiss.hits == 0 && afterMiss.misses > 0 && afterMiss.bytesFromOrigin == 5000, "the first GET is a miss")
            _ = try await harness.get("/a.ts")
            let response = try await harness.fetch("http://127.0.0.1:\(harness.port)/status")
            #expect(response.status == 200)
            #expect(response.headers.first(name: "content-type") == "application/json")
            let status = try JSONDecoder().decode(ProxyStatus.self, from: Data(response.body))
            #expect(status.port == harness.port)
            #expect(status.cache.limitBytes == 256 << 20)
            #expect(status.cache.sizeBytes > 0)
            #expect(status.cache.entries == 1)
            // The second GET is one hit of the same 5,000 bytes, all from the cache, none from the origin.
            #expect(status.cache.hits == 1)
            #expect(status.cache.misses == afterMiss.misses)
            #expect(status.cache.bytesFromOrigin == 5000)
            #expect(status.cache.bytesFromCache == afterMiss.bytesFromCache + 5000)
            #expect(status.segment.capacity == 32)
            #expect(status.express.active == 0)
            #expect(status.uptimeSeconds > 0)
            #expect(status.traffic.requests == 3, "the two GETs and this one")
            #expect(status.breakers.isEmpty)
        }
    }
}
