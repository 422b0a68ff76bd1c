import AsyncHTTPClient
import CacheStore
import Foundation
import HummingbirdCache
import Hummingbird
import NIOCore
import SparseFile

/// The example proxy on 127.0.0.1 in front of a ``TestOrigin``, on a real store in a folder.
struct ProxyUnderTest: Sendable {
    let store: CacheStore
    let proxy: CachingProxy
    let server: RunningServer

    static func start(directory: String, origin: TestOrigin, client: HTTPClient) async throws -> ProxyUnderTest {
        let store = try CacheStore.open(at: directory, configuration: .init(maximumSize: 256 << 20, minimumFreeSpace: 0))
        let proxy = CachingProxy(store: store, origin: origin.url, client: client)
        let router = Router()
        proxy.addRoutes(to: router)
        return ProxyUnderTest(store: store, proxy: proxy, server: try await RunningServer.start(router))
    }

    /// Stops serving, ends the downloads and closes the store, as a process that exits cleanly does.
    func stop() async throws {
        await server.stop()
        await proxy.cancelFills()
        try store.close()
    }

    func request(_ path: String, range: String? = nil) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(server.port)\(path)")
        if let range { request.headers.add(name: "Range", value: range) }
        return request
    }

    /// One whole exchange: status, headers and body.
    func get(_ path: String, range: String? = nil, with client: HTTPClient) async throws -> Answer {
        let response = try await client.execute(request(path, range: range), timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 64 << 20)
        return Answer(status: response.status.code, headers: response.headers.map { ($0.name, $0.value) }, body: Array(buffer: body))
    }

    /// Whether `range` of `path`'s entry is cached (written by a fill, not only claimed).
    func isCached(_ path: String, _ range: ByteRange, origin: TestOrigin) -> Bool {
        store.plan(key: store.key(for: origin.url + path), range: range).isFullyCached
    }

    struct Answer: Sendable {
        var status: UInt
        var headers: [(name: String, value: String)]
        var body: [UInt8]

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }
}

/// What every test gets: an origin with one 1 MiB file, a client, and an empty store folder,
/// all stopped and removed afterwards.
struct TestEnvironment: Sendable {
    static let path = "/media/video.mp4"
    static let content: [UInt8] = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }

    let origin: TestOrigin
    let client: HTTPClient
    let directory: String
    private let proxies = StartedProxies()

    static func with(_ body: (TestEnvironment) async throws -> Void) async throws {
        let origin = TestOrigin(files: [path: content])
        try await origin.start()
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hummingbird-cache-\(UUID())").path
        let environment = TestEnvironment(origin: origin, client: client, directory: directory)
        let result = await Result(catching: { try await body(environment) })
        // A test that failed half-way may have left a response held and a proxy running.
        origin.release(dropping: true)
        for proxy in environment.proxies.all { try? await proxy.stop() }
        try await client.shutdown()
        await origin.stop()
        try? FileManager.default.removeItem(atPath: directory)
        try result.get()
    }

    func startProxy() async throws -> ProxyUnderTest {
        let proxy = try await ProxyUnderTest.start(directory: directory, origin: origin, client: client)
        proxies.add(proxy)
        return proxy
    }
}

/// Waits for `condition` with a generous deadline: long enough to tell "works" from "hangs"
/// on a loaded machine, never a fixed sleep.
func eventually(_ what: String, within seconds: Double = 30, _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while !condition() {
        guard ContinuousClock.now < deadline else { throw TimedOut(what: what) }
        try await Task.sleep(for: .milliseconds(5))
    }
}

struct TimedOut: Error, CustomStringConvertible {
    var what: String
    var description: String { "timed out waiting until \(what)" }
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
