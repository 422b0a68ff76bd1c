import AsyncHTTPClient
import Synchronization
import TestSupport

/// A GET through the proxy whose body is read in the background, so that a test can wait until
/// it has received some bytes (it is then following a fetch) before moving the origin on.
final class StreamingRequest: Sendable {
    private let progress = Mutex(0)
    private let reading = Mutex<Task<[UInt8], any Error>?>(nil)

    init(_ harness: ProxyHarness, _ path: String, headers: [(String, String)] = []) {
        var request = HTTPClientRequest(url: harness.proxyURL(path))
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let task = Task { [self] in
            let response = try await harness.client.execute(request, timeout: .seconds(60))
            var body: [UInt8] = []
            for try await chunk in response.body {
                body.append(contentsOf: chunk.readableBytesView)
                progress.withLock { $0 = body.count }
            }
            return body
        }
        reading.withLock { $0 = task }
    }

    /// Body bytes received so far.
    var received: Int { progress.withLock { $0 } }

    /// The whole body, or the error that ended it.
    func body() async throws -> [UInt8] {
        guard let task = reading.withLock({ $0 }) else { return [] }
        return try await task.cancellableValue
    }
}
