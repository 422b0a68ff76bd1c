import Hummingbird
import Logging

/// A Hummingbird application listening on 127.0.0.1 at a port the system chose, in a task of
/// its own until ``stop()``.
struct RunningServer: Sendable {
    let port: Int
    private let task: Task<Void, any Error>

    static func start(_ router: Router<BasicRequestContext>) async throws -> RunningServer {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "test-server")
        logger.logLevel = .critical
        let application = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: logger)
        let task = Task {
            defer { continuation.finish() }  // a server that could not start ends the wait below
            try await application.runService(gracefulShutdownSignals: [])
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            task.cancel()
            throw ServerStartError()
        }
        return RunningServer(port: port, task: task)
    }

    /// Stops the server: open connections are closed.
    func stop() async {
        task.cancel()
        _ = await task.result
    }

    struct ServerStartError: Error {}
}
