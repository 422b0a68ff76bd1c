@testable import CacheProxy
import CacheStore
import Foundation
import NIOCore
import NIOPosix
import Synchronization
import Testing
import TestSupport

/// Each event loop listens on the proxy's port, and a new connection goes to the loop of the
/// CPU its client connected from; a small hit to a client on another CPU goes out with
/// `sendfile`. Clients here connect from threads pinned to one CPU, so where each connection
/// lands is known.
@Suite("Connections steered to their client's CPU", .timeLimit(.minutes(1)))
struct ConnectionSteeringTests {
    /// Opens `count` connections from a thread pinned to `cpu`, each answered once (so the
    /// proxy has accepted it), and returns them open.
    static func connect(_ count: Int, from cpu: Int, to harness: ProxyHarness) async throws -> [RawConnection] {
        let port = harness.port
        let connections = try await PinnedThread.run(on: cpu) {
            try (0..<count).map { _ in try RawConnection(port: port) }
        }
        for connection in connections {
            connection.send("GET /status HTTP/1.1\r\nHost: \(harness.host)\r\n\r\n")
            let response = await connection.readResponse(timeout: .seconds(10))
            try #require(response?.status == 200)
        }
        return connections
    }

    static func accepted(_ harness: ProxyHarness) throws -> [Int] {
        try #require(harness.proxy.status).listeners.acceptedConnections
    }

    @Test("A client's connections all go to the event loop of the CPU it connects from",
          .enabled(if: PinnedThread.hasTwoCPUs, "needs CPUs 0 and 1"))
    func connectionsFollowTheirClientsCPU() async throws {
        try await ProxyHarness.run(configure: {
            $0.threads = 2
            $0.steersConnectionsByCPU = true
        }) { harness in
            let status = try #require(harness.proxy.status)
            #expect(status.listeners.steeredByCPU)
            let before = try Self.accepted(harness)
            try #require(before.count == 2, "one listening socket per event loop")
            let fromFirst = try await Self.connect(4, from: 0, to: harness)
            let afterFirst = try Self.accepted(harness)
            #expect(zip(afterFirst, before).map(-) == [4, 0], "\(before) -> \(afterFirst)")
            let fromSecond = try await Self.connect(4, from: 1, to: harness)
            #expect(zip(try Self.accepted(harness), afterFirst).map(-) == [0, 4])
            #expect(fromFirst.count + fromSecond.count == 8)
        }
    }

    @Test("By default, with steering off, or with one thread, there is one listening socket")
    func oneSocketWithoutSteering() async throws {
        #expect(!CacheProxyConfiguration().steersConnectionsByCPU, "off by default")
        for (threads, steering) in [(2, false), (1, true)] {
            try await ProxyHarness.run(configure: {
                $0.threads = threads
                $0.steersConnectionsByCPU = steering
            }) { harness in
                let connections = try await Self.connect(3, from: 0, to: harness)
                let listeners = try #require(harness.proxy.status).listeners
                #expect(!listeners.steeredByCPU && listeners.acceptedConnections == [3], "\(threads) threads, steering \(steering)")
                #expect(connections.count == 3)
            }
        }
    }

    @Test("A second proxy on the port of a steered one fails with addressInUse instead of sharing it",
          arguments: [true, false])
    func secondProxyOnTheSamePort(steering: Bool) async throws {
        try await ProxyHarness.run(configure: {
            $0.threads = 2
            $0.steersConnectionsByCPU = true
        }) { harness in
            let directory = TemporaryDirectory("second-proxy")
            let store = try CacheStore.open(at: directory.path, configuration: CacheStoreConfiguration(maximumSize: 16 << 20))
            defer { try? store.close() }
            var configuration = CacheProxyConfiguration()
            configuration.port = harness.port
            configuration.threads = 2
            configuration.steersConnectionsByCPU = steering
            let second = try CacheProxy(store: store, configuration: configuration)
            let failure = await #expect(throws: CacheProxyError.self) { try await second.start() }
            #expect(failure?.code == .addressInUse, "\(String(describing: failure))")
            // The first proxy still answers every connection.
            let response = try await harness.fetch("http://\(harness.host)/status")
            #expect(response.status == 200)
        }
    }

    @Test("The serving thread tells a client on its own CPU from one on another",
          .enabled(if: PinnedThread.hasTwoCPUs, "needs CPUs 0 and 1"))
    func clientLocality() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        try await loop.submit { try #require(PinnedThread.pinCurrentThread(to: 0)) }.get()
        let seen = LocalityProbe.Seen()
        let server = try await ServerBootstrap(group: group)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(LocalityProbe(seen: seen)) }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let port = try #require(server.localAddress?.port)
        for (index, cpu) in [0, 1, 0].enumerated() {
            let connection = try await PinnedThread.run(on: cpu) { () throws -> RawConnection in
                let connection = try RawConnection(port: port)
                connection.send("x")
                return connection
            }
            let deadline = ContinuousClock.now + .seconds(5)
            while seen.values.withLock({ $0.count }) <= index, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(5))
            }
            withExtendedLifetime(connection) {}
        }
        #expect(seen.values.withLock { $0 } == [true, false, true])
        try await server.close()
        try await group.shutdownGracefully()
    }
}

/// Records, when a connection's bytes arrive, whether its client ran on the serving CPU.
private final class LocalityProbe: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    final class Seen: Sendable {
        let values = Mutex<[Bool?]>([])
    }

    let seen: Seen

    init(seen: Seen) {
        self.seen = seen
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let shares = ClientLocality.sharesCPU(with: context.channel)
        seen.values.withLock { $0.append(shares) }
    }
}
