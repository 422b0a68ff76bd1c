/// A condition a test waited for did not come true in time.
public struct WaitTimedOut: Error, CustomStringConvertible {
    public let description: String
}

/// Waits until `condition` holds, checking it every `interval`: for tests that wait for an
/// event they can observe but not await (a fill to end, a counter to move, a process to write),
/// instead of sleeping for a guessed time.
///
/// - Throws: ``WaitTimedOut`` naming `what` when `timeout` passes first, so a test fails in
///   seconds instead of hanging.
public func waitUntil(
    _ what: String, timeout: Duration = .seconds(30), interval: Duration = .milliseconds(5),
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw WaitTimedOut(description: "timed out after \(timeout) waiting until \(what)") }
        try await Task.sleep(for: interval)
    }
}

extension Task where Failure == any Error {
    /// The task's value; cancelling the waiting task (a test's time limit does) cancels this
    /// one, which `value` alone would wait for regardless: a test that hangs fails at its limit.
    public var cancellableValue: Success {
        get async throws {
            try await withTaskCancellationHandler { try await value } onCancel: { cancel() }
        }
    }
}
