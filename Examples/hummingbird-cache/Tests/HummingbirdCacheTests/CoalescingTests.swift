import AsyncHTTPClient
import CacheStore
import SparseFile
import Testing

/// Concurrent misses of the same bytes make one origin request: the first claims the range,
/// the others follow its download, and all of them stream the bytes while it is still running.
@Suite struct CoalescingTests {
    let path = TestEnvironment.path
    let content = TestEnvironment.content
    let held = 256 * 1024

    @Test func concurrentMissesMakeOneOriginRequestAndStreamWhileItRuns() async throws {
        try await TestEnvironment.with { environment in
            let origin = environment.origin
            let proxy = try await environment.startProxy()
            origin.hold(at: held)
            let streaming = Counter()
            let clients = 4
            try await withThrowingTaskGroup(of: [UInt8].self) { group in
                for index in 0..<clients {
                    if index == 1 {
                        // The others arrive once the first one's download has started.
                        try await eventually("the origin has the first request") { origin.received.count == 1 }
                    }
                    let request = proxy.request(path)
                    group.addTask { [self] in
                        try await readAll(request, client: environment.client) {
                            streaming.increment()
                        }
                    }
                }
                // Every client has the first bytes while the origin still holds the rest.
                try await eventually("every client streams the held part") { streaming.value == clients }
                #expect(origin.received.count == 1)
                #expect(proxy.store.statistics.misses == UInt64(clients))
                origin.release(dropping: false)
                for try await body in group { #expect(body == content) }
            }
            #expect(origin.received.map(\.range) == ["bytes=0-"])
            try await proxy.stop()
        }
    }

    /// Reads a response to the end, calling `reachedHeldPart` once it has the bytes the origin
    /// sends before it holds.
    private func readAll(
        _ request: HTTPClientRequest, client: HTTPClient, reachedHeldPart: @Sendable () -> Void
    ) async throws -> [UInt8] {
        let response = try await client.execute(request, timeout: .seconds(60))
        #expect(response.status == .ok)
        var body: [UInt8] = []
        var told = false
        for try await chunk in response.body {
            body += Array(buffer: chunk)
            if !told, body.count >= held {
                told = true
                reachedHeldPart()
            }
        }
        return body
    }
}
