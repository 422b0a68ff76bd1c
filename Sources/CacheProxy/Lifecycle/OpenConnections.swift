import NIOCore
import Synchronization

/// The client connections of a running proxy, so that a graceful shutdown can ask each one to
/// close once its responses are out (``DrainConnection``), wait until they all have, and close
/// those still open when the grace period is over.
final class OpenConnections: Sendable {
    private let state = Mutex(State())

    private struct State {
        var channels: [ObjectIdentifier: any Channel] = [:]
        var isDraining = false
        /// Waiting for the last connection to close.
        var emptyWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// Tracks `channel` until it closes. A connection accepted while draining (before the
    /// listener closed) is closed at once: it has sent nothing yet.
    func add(_ channel: any Channel) {
        let isDraining = state.withLock { state in
            state.channels[ObjectIdentifier(channel)] = channel
            return state.isDraining
        }
        channel.closeFuture.whenComplete { _ in self.remove(channel) }
        if isDraining { channel.eventLoop.execute { channel.close(promise: nil) } }
    }

    private func remove(_ channel: any Channel) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.channels[ObjectIdentifier(channel)] = nil
            guard state.channels.isEmpty else { return [] }
            defer { state.emptyWaiters = [] }
            return state.emptyWaiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Whether ``drain()`` was called.
    var isDraining: Bool { state.withLock { $0.isDraining } }

    /// Asks every connection to close once its responses are out.
    func drain() {
        let channels = state.withLock { state in
            state.isDraining = true
            return Array(state.channels.values)
        }
        for channel in channels { channel.pipeline.fireUserInboundEventTriggered(DrainConnection()) }
    }

    /// Returns once every connection has closed, or after `limit`, or when the task is cancelled.
    func waitUntilClosed(within limit: Duration) async {
        await withTaskGroup { group in
            group.addTask { await self.waitUntilEmpty() }
            group.addTask { try? await Task.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
    }

    private func waitUntilEmpty() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let isEmpty = state.withLock { state -> Bool in
                    guard !state.channels.isEmpty, !Task.isCancelled else { return true }
                    state.emptyWaiters.append(continuation)
                    return false
                }
                if isEmpty { continuation.resume() }
            }
        } onCancel: {
            let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                defer { state.emptyWaiters = [] }
                return state.emptyWaiters
            }
            for waiter in waiters { waiter.resume() }
        }
    }

    /// Closes every connection still open, dropping what it had not sent.
    func closeAll() {
        let channels = state.withLock { Array($0.channels.values) }
        for channel in channels { channel.close(promise: nil) }
    }
}

/// Sent through a connection's pipeline when the proxy shuts down gracefully: the connection
/// finishes the responses it owes, then closes its side (`RequestHeadTimeoutHandler`, which
/// sees every response end, does it).
struct DrainConnection: Sendable {}
