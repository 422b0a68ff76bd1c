import CacheProxy
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// The sessions of one client: each request in flight has one to itself (so its delegate serves
/// one transfer), and a finished request's session waits for the next one, with the connection
/// it keeps open.
final class SessionPool: Sendable {
    private struct State {
        var idle: [PooledSession] = []
        var leased: [ObjectIdentifier: PooledSession] = [:]
        var isShutDown = false
    }

    private let configuration: @Sendable () -> URLSessionConfiguration
    private let idleLimit: Int
    private let state = Mutex(State())

    /// - Parameters:
    ///   - configuration: makes the configuration of each new session.
    ///   - idleLimit: the most sessions kept between requests; more are closed when their
    ///     request ends.
    init(configuration: @escaping @Sendable () -> URLSessionConfiguration, idleLimit: Int) {
        self.configuration = configuration
        self.idleLimit = idleLimit
    }

    /// A session for one request, to be given back (``giveBack(_:)``) when its task completes.
    ///
    /// - Throws: ``OriginClientError`` after ``shutdown()``.
    func lease() throws -> PooledSession {
        let reused: PooledSession? = try state.withLock { state in
            guard !state.isShutDown else { throw OriginClientError(.other, detail: "the origin client was shut down") }
            guard let session = state.idle.popLast() else { return nil }
            state.leased[ObjectIdentifier(session)] = session
            return session
        }
        if let reused { return reused }
        let session = PooledSession(configuration: configuration())
        let admitted = state.withLock { state in
            guard !state.isShutDown else { return false }
            state.leased[ObjectIdentifier(session)] = session
            return true
        }
        guard admitted else {
            session.close()
            throw OriginClientError(.other, detail: "the origin client was shut down")
        }
        return session
    }

    /// Takes back a session whose task has completed.
    func giveBack(_ session: PooledSession) {
        let kept = state.withLock { state in
            state.leased[ObjectIdentifier(session)] = nil
            guard !state.isShutDown, state.idle.count < idleLimit else { return false }
            state.idle.append(session)
            return true
        }
        if !kept { session.close() }
    }

    /// Cancels every request and closes every session; ``lease()`` throws from now on.
    func shutdown() {
        let sessions = state.withLock { state in
            state.isShutDown = true
            defer {
                state.idle.removeAll()
                state.leased.removeAll()
            }
            return state.idle + Array(state.leased.values)
        }
        for session in sessions { session.close() }
    }
}
