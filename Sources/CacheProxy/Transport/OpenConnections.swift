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
        /// The start of the graceful shutdown (``beginDraining(_:)``), which the wait awaits first.
        var drainStart: Task<Void, Never>?
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

    /// Whether ``beginDraining(_:)`` or ``drain()`` was called.
    var isDraining: Bool { state.withLock { $0.isDraining } }

    /// Marks the proxy as draining (a connection accepted from now on is closed at once), then
    /// runs `start` (which calls ``drain()``) in a task that ``waitUntilClosed(within:)`` waits
    /// for first. Called before the listener closes, so that the accept loop sees the drain.
    func beginDraining(_ start: @escaping @Sendable () async -> Void) {
        state.withLock { $0.isDraining = true }
        let task = Task { await start() }
        state.withLock { $0.drainStart = task }
    }

    /// Asks every connection to close once its responses are out, and returns once each one
    /// has said whether it owed one: an idle connection closes at once, whether or not its
    /// client would ever close it (a keep-alive connection a player's HTTP stack keeps in its
    /// pool, say).
    func drain() async -> DrainReport {
        let channels = state.withLock { state in
            state.isDraining = true
            return Array(state.channels.values)
        }
        let tally = DrainTally()
        await withTaskGroup(of: Void.self) { group in
            for channel in channels {
                group.addTask {
                    // On the connection's own loop the event reaches its handlers before this returns.
                    try? await channel.eventLoop.submit {
                        channel.pipeline.fireUserInboundEventTriggered(DrainConnection(tally: tally))
                    }.get()
                }
            }
        }
        return tally.report
    }

    /// Returns once every connection has closed, or after `limit`, or when the task is cancelled.
    func waitUntilClosed(within limit: Duration) async {
        let drainStart = state.withLock { $0.drainStart }
        await withTaskGroup { group in
            group.addTask {
                await drainStart?.value
                await self.waitUntilEmpty()
            }
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
/// finishes the responses it owes, then closes (`RequestHeadTimeoutHandler`, which sees every
/// response end, does it, and tells ``tally`` whether it owed a response).
struct DrainConnection: Sendable {
    let tally: DrainTally
}

/// What the connections said when asked to drain.
struct DrainReport: Sendable, Equatable {
    /// Connections with a response in flight: a client receiving it, whom the shutdown waits for.
    var owing: Int
    /// Connections that owed nothing and closed at once.
    var idle: Int
}

/// Counts the connections' answers to ``DrainConnection``, from their event loops.
final class DrainTally: Sendable {
    private let owing = Atomic<Int>(0)
    private let idle = Atomic<Int>(0)

    func record(owesResponse: Bool) {
        if owesResponse {
            owing.add(1, ordering: .relaxed)
        } else {
            idle.add(1, ordering: .relaxed)
        }
    }

    var report: DrainReport {
        DrainReport(owing: owing.load(ordering: .relaxed), idle: idle.load(ordering: .relaxed))
    }
}
