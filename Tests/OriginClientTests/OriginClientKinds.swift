@testable import CacheProxy
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
        kind.name != OriginClientKind.urlSession.name
    }
}
