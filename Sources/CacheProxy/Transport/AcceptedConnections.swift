import NIOCore
import Synchronization

/// The connections a listener has accepted that its accept loop has not yet taken.
///
/// SwiftNIO passes each accepted connection to the accept loop through the listener's inbound
/// stream. A connection accepted as the listener closes can reach that stream after it has
/// ended, and is then dropped without its writer ever being finished, on which SwiftNIO traps:
/// the whole process stops (apple/swift-nio#2813). A player that connects while the app stops
/// its proxy is enough. So every connection is admitted here when it is made, the accept loop
/// (``serveAll(from:in:with:)``) takes it out when it gets it, and when the loop has ended the
/// ones it never got are closed here.
final class AcceptedConnections<Inbound: Sendable, Outbound: Sendable>: Sendable {
    typealias Connection = NIOAsyncChannel<Inbound, Outbound>

    private struct State {
        var waiting: [ObjectIdentifier: Connection] = [:]
        var loopEnded = false
    }

    private let state = Mutex(State())

    init() {}

    /// Keeps `connection` until the accept loop takes it; once the loop has ended, closes it.
    /// Called where the connection is made, in the listener's child channel initializer.
    func admit(_ connection: Connection) -> Connection {
        let kept = state.withLock { state in
            guard !state.loopEnded else { return false }
            state.waiting[ObjectIdentifier(connection.channel)] = connection
            return true
        }
        if !kept {
            // The initializer runs on the event loop and cannot wait: the close runs on its own.
            Task { await Self.close(connection) }
        }
        return connection
    }

    /// The accept loop: serves each connection `listener` accepts in a task of `group` until
    /// the listener closes, then closes in `group` the ones it never got.
    func serveAll(
        from listener: NIOAsyncChannel<Connection, Never>, in group: inout ThrowingDiscardingTaskGroup<any Error>,
        with serve: @escaping @Sendable (Connection) async -> Void
    ) async throws {
        defer {
            for connection in endLoop() {
                group.addTask { await Self.close(connection) }
            }
        }
        try await listener.executeThenClose { inbound in
            for try await connection in inbound {
                _ = state.withLock { $0.waiting.removeValue(forKey: ObjectIdentifier(connection.channel)) }
                group.addTask { await serve(connection) }
            }
        }
    }

    /// The connections the loop never got; those admitted from now on are closed as they come.
    private func endLoop() -> [Connection] {
        state.withLock { state in
            state.loopEnded = true
            defer { state.waiting = [:] }
            return Array(state.waiting.values)
        }
    }

    /// Closes a connection nothing served.
    private static func close(_ connection: Connection) async {
        try? await connection.executeThenClose { _, _ in }
    }
}
