import AsyncHTTPClient
import CacheProxy
import CacheProxyServer
import CacheStore
import Logging
import ServiceLifecycle
import SparseFile
import Testing
import TestSupport

@Suite("CacheProxyService runs the proxy in a ServiceGroup", .timeLimit(.minutes(2)))
struct CacheProxyServiceTests {
    @Test("The group's graceful shutdown lets a response in flight finish, then stops the proxy")
    func gracefulShutdownOfTheGroup() async throws {
        let directory = TemporaryDirectory("proxy-service")
        let store = try CacheStore.open(at: directory.path, configuration: .init(fileOptions: SparseFileOptions(durability: .none)))
        defer { try? store.close() }
        let origin = try await TestOrigin.start()
        let body = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        origin.set("/slow.ts", TestOrigin.Resource(body, faults: TestOrigin.Faults(headDelay: .milliseconds(800))))
        var configuration = CacheProxyConfiguration.server
        configuration.port = 0
        var logger = Logger(label: "test.service")
        logger.logLevel = .error
        let proxy = try CacheProxy(store: store, configuration: configuration, logger: logger)
        let group = ServiceGroup(services: [CacheProxyService(proxy)], logger: logger)
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            try await withThrowingTaskGroup { tasks in
                tasks.addTask { try await group.run() }
                let port = try await proxy.start()
                let url = "http://127.0.0.1:\(port)/proxy?url=" + percentEncoded(origin.url("/slow.ts"))
                let inFlight = Task { () throws -> (UInt, [UInt8]) in
                    let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
                    let bytes = try await response.body.collect(upTo: 1 << 20)
                    return (response.status.code, Array(bytes.readableBytesView))
                }
                // The request has reached the origin, whose head is still on its way.
                let deadline = ContinuousClock.now + .seconds(30)
                while origin.requests(for: "/slow.ts").isEmpty, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(10))
                }
                #expect(!origin.requests(for: "/slow.ts").isEmpty)
                await group.triggerGracefulShutdown()
                let (status, received) = try await inFlight.value
                #expect(status == 200)
                #expect(received == body)
                try await tasks.waitForAll()
            }
        } catch {
            try? await client.shutdown()
            await origin.stop()
            throw error
        }
        #expect(!proxy.isRunning)
        await #expect(throws: CacheProxyError(.alreadyStopped, "")) { try await proxy.start() }
        try await client.shutdown()
        await origin.stop()
    }
}
