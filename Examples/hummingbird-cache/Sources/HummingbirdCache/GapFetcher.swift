import AsyncHTTPClient
import CacheStore
import NIOCore
import SparseFile

/// Claims the bytes a request needs and starts fetching the ones nobody has: the coalescing.
///
/// ``CacheStore/claim(key:range:counts:)`` plans the range and registers its missing pieces as
/// in flight for this caller, atomically: a second request for the same bytes gets no fill for
/// them and follows the first one's download instead. Cached pieces are read, pieces in flight
/// are followed, and each missing piece (a gap) is fetched alone, with its own origin request.
/// Fills run in tasks of their own, so a download goes on for its followers (and the cache)
/// when the client that started it goes away.
struct GapFetcher: Sendable {
    let store: CacheStore
    let client: HTTPClient
    let originTimeout: TimeAmount
    let tasks = FillTasks()

    /// Claims `range` of `resource` and starts a fill for each gap. `counts` is false for a
    /// second claim of a request already counted as a hit or a miss.
    func fetchGaps(of range: ByteRange, of resource: ProxiedResource, counts: Bool = true) throws(CacheStoreError) {
        let claim = try store.claim(key: resource.key, range: range, counts: counts)
        let origin = OriginFill(client: client, url: resource.url, timeout: originTimeout)
        for fill in claim.fills {
            tasks.run { await origin.run(fill) }
        }
    }
}
