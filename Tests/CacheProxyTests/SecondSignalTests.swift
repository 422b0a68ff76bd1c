import Foundation
import Testing
import TestSupport

/// `sparsecache serve` as a process with a client that stops reading: the first signal starts
/// the graceful drain, which waits for that client up to the grace period; a second one stops
/// the process at once, with the exit status servers give a stop a signal forced.
@Suite("A second signal stops sparsecache serve at once")
struct SecondSignalTests {
    @Test("A second SIGINT (or SIGTERM) during the drain exits at once with 128 + the signal, cutting the client that stopped reading",
          .timeLimit(.minutes(1)), arguments: [SIGINT, SIGTERM])
    func secondSignalStopsAtOnce(signal: Int32) async throws {
        // A grace period far longer than the test's bound: only the second signal can end it in time.
        let (serve, stalled, directory) = try await GracefulShutdownTests.serveWithStalledClient(["--shutdown-grace", "60", "--log-level", "info"])
        defer { withExtendedLifetime(directory) {} }
        serve.signal(signal)
        // The first signal drains: the process waits for the stalled response.
        #expect(await serve.waitForError(containing: "waiting at most 60.0 seconds for 1 response in flight"), "\(serve.standardError)")
        let again = ContinuousClock.now
        serve.signal(signal)
        let status = await serve.exitStatus()
        let elapsed = ContinuousClock.now - again
        #expect(status == 128 + signal, "standard error: \(serve.standardError)")
        #expect(elapsed < .seconds(20), "at once, not after the 60 s grace period (took \(elapsed))")
        // Waited for: the process may exit before the pipe's reader has taken its last line.
        #expect(await serve.waitForError(containing: "again: stopping at once"), "\(serve.standardError)")
        let (bytes, closed) = await stalled.readUntilClosed(timeout: .seconds(10))
        #expect(closed)
        #expect(bytes.count < GracefulShutdownTests.size, "the stalled response was cut, not completed")
    }
}
