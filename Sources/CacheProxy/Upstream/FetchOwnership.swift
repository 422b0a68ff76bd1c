import Synchronization

/// Who a fetch is for: whether the client that started it is still there (a fetch whose client
/// left goes on only while little is left to fetch, see
/// ``CacheProxyConfiguration/orphanFetchLimit``), and the playback session whose traffic it is,
/// if any.
final class FetchOwnership: Sendable {
    private let gone = Atomic<Bool>(false)
    /// The session the fetched bytes are counted for.
    let session: SessionTraffic?

    init(session: SessionTraffic? = nil) {
        self.session = session
    }

    var isOwnerGone: Bool { gone.load(ordering: .relaxed) }

    func ownerLeft() {
        gone.store(true, ordering: .relaxed)
    }
}
