import Synchronization

/// Whether the client that started a fetch is still there. A fetch whose client left goes on
/// only while little is left to fetch (see ``CacheProxyConfiguration/orphanFetchLimit``).
final class FetchOwnership: Sendable {
    private let gone = Atomic<Bool>(false)

    var isOwnerGone: Bool { gone.load(ordering: .relaxed) }

    func ownerLeft() {
        gone.store(true, ordering: .relaxed)
    }
}
