@testable import CacheProxy
import CacheProxyServer
import CacheProxyURLSession

/// Every origin client the contract runs against.
let originClientKinds: [OriginClientKind] = [.asyncHTTPClient, .urlSession]

/// Where the two clients legitimately differ: the one place the contract says so, each with
/// the reason. A test that meets a difference asks here instead of skipping.
enum OriginClientDifferences {
    /// Whether the client calls ``OriginClientSettings/checkPeer`` for each connection it makes.
    /// `URLSession` does not show the address a connection reached; ``OriginGuard`` checks the
    /// host's addresses before each request either way (URLSessionOriginClient's DocC).
    static func checksPeer(_ kind: OriginClientKind) -> Bool {
        kind.checksPeers
    }

    /// Whether the client stops reading from the origin while its reader is behind, so that a
    /// body's memory is bounded. swift-corelibs-foundation (Linux) cannot: suspending a task
    /// restarts it, and a waiting delegate stops every session of the process
    /// (URLSessionOriginClient's DocC). Apple's `URLSession` suspends the task.
    static func boundsBodyMemory(_ kind: OriginClientKind) -> Bool {
        #if canImport(FoundationNetworking)
        kind.name != OriginClientKind.urlSession.name
        #else
        true
        #endif
    }
}
