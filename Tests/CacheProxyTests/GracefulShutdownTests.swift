import AsyncHTTPClient
import CacheStore
import Foundation
import NIOCore
import SparseFile
import Testing
import TestSupport

/// `sparsecache serve` as a process, stopped the way service managers stop it: SIGTERM.
@Suite("Graceful shutdown of sparsecache serve")
struct GracefulShutdownTests {
    static let size = 32 << 20
    /// Made once for both tests: generating it is most of what they cost.
    static let body = TestBytes(seed: 77).bytes(0, size)
    /// Nothing listens there: every byte served must come from the cache.
    static let origin = "http://127.0.0.1:9/movie.mp4"

    /// A cache directory holding the whole of ``origin``.
    static func cacheHoldingMovie(_ body: [UInt8]) throws -> TemporaryDirectory {
        let directory = TemporaryDirectory("graceful")
        let store = try CacheStore.open(at: directory.path, configuration: .init(fileOptions: SparseFileOptions(durability: .none)))
        try store.put(key: store.key(for: origin), offset: 0, bytes: body,
                      metadata: EntryMetadata(contentLength: UInt64(body.count), contentType: "video/mp4"))
        try store.close()
        return directory
    }

    static func client() -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.decompression = .disabled
        configuration.timeout = .init(connect: .seconds(5), read: .seconds(20))
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Whether a new connection to `port` is refused, tried until `deadline`: the listener
    /// closes on the proxy's event loop just after it logs that it is shutting down.
    static func refusesConnections(port: Int, until deadline: ContinuousClock.Instant) async -> Bool {
        while ContinuousClock.now < deadline {
            guard (try? RawConnection(port: port)) != nil else { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    @Test("SIGTERM: a download in flight gets its whole body, new connections are refused, the process exits 0",
          .timeLimit(.minutes(1)))
    func downloadFinishes() async throws {
        let body = Self.body
        let directory = try Self.cacheHoldingMovie(body)
        let serve = try ServeProcess(["--cache-dir", directory.path, "--shutdown-grace", "20"])
        let client = Self.client()
        do {
            let request = HTTPClientRequest(url: "http://127.0.0.1:\(serve.port)/proxy?url=" + percentEncoded(Self.origin))
            let response = try await client.execute(request, timeout: .seconds(30))
            #expect(response.status == .ok)
            var received: [UInt8] = []
            var chunks = response.body.makeAsyncIterator()
            // The response has started and most of it is still to come when the signal arrives.
            if let first = try await chunks.next() { received += first.readableBytesView }
            #expect(received.count < Self.size / 2)
            serve.signal(SIGTERM)
            #expect(await serve.waitForError(containing: "shutting down"))
            #expect(await Self.refusesConnections(port: serve.port, until: .now + .seconds(5)), "a new connection after SIGTERM is refused")
            while let chunk = try await chunks.next() { received += chunk.readableBytesView }
            #expect(received.count == Self.size)
            #expect(received == body, "the whole body, unchanged")
            #expect(await serve.exitStatus() == 0, "standard error: \(serve.standardError)")
        } catch {
            serve.signal(SIGKILL)
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
        // The index was saved and the store released: it opens for writing, the entry whole.
        let store = try CacheStore.open(at: directory.path)
        defer { try? store.close() }
        #expect(store.entry(for: store.key(for: Self.origin))?.cachedBytes == UInt64(Self.size))
    }

    @Test("A client that stops reading is cut off at the grace period, and the process still exits 0", .timeLimit(.minutes(1)))
    func gracePeriodEnds() async throws {
        let directory = try Self.cacheHoldingMovie(Self.body)
        let serve = try ServeProcess(["--cache-dir", directory.path, "--shutdown-grace", "1"])
        let stalled = try RawConnection(port: serve.port, receiveBufferSize: 16 * 1024)
        let target = "/proxy?url=" + percentEncoded(Self.origin)
        stalled.send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(serve.port)\r\n\r\n")
        // A second request on another connection proves the first was read before the signal.
        let client = Self.client()
        var probe = HTTPClientRequest(url: "http://127.0.0.1:\(serve.port)\(target)")
        probe.headers.add(name: "Range", value: "bytes=0-0")
        #expect(try await client.execute(probe, timeout: .seconds(10)).status == .partialContent)
        try await client.shutdown()
        let signalled = ContinuousClock.now
        serve.signal(SIGTERM)
        #expect(await serve.exitStatus() == 0, "standard error: \(serve.standardError)")
        let elapsed = ContinuousClock.now - signalled
        #expect(elapsed >= .seconds(1), "the grace period was given")
        #expect(elapsed < .seconds(15), "and not much more")
        let (bytes, closed) = await stalled.readUntilClosed(timeout: .seconds(10))
        #expect(closed)
        #expect(bytes.count < Self.size, "the stalled response was cut, not completed")
    }
}
