import CacheStore
import NIOCore
import Synchronization

/// The connections that keep a cache file between requests (``HitResponder``'s last entry and
/// ``ConnectionFileHandles``' duplicate descriptor), so that the proxy can make them let go of
/// files the store has removed when it runs out of disk: an unlinked file's blocks stay
/// allocated while any descriptor names it, and an idle keep-alive connection would otherwise
/// hold them until its next request or its idle timeout.
final class HeldFiles: Sendable {
    /// A connection's responder, reachable only on its event loop, and not kept alive by this list.
    private final class WeakResponder {
        weak var responder: HitResponder?
        init(_ responder: HitResponder) { self.responder = responder }
    }

    private struct Holder: Sendable {
        let responder: NIOLoopBound<WeakResponder>
        let eventLoop: any EventLoop
    }

    private let holders = Mutex<[ObjectIdentifier: Holder]>([:])
    private let lastRelease = Mutex<ContinuousClock.Instant?>(nil)
    /// The least time between two releases: a full disk makes every response ask for one.
    static let releaseInterval: Duration = .seconds(1)

    func add(_ responder: HitResponder, on eventLoop: any EventLoop) {
        let holder = Holder(responder: NIOLoopBound(WeakResponder(responder), eventLoop: eventLoop), eventLoop: eventLoop)
        holders.withLock { $0[ObjectIdentifier(responder)] = holder }
    }

    /// The connection's responder went away.
    func remove(_ identifier: ObjectIdentifier) {
        holders.withLock { $0[identifier] = nil }
    }

    /// Asks every connection, on its event loop, to close a kept descriptor whose file `store`
    /// no longer holds. At most once a second.
    func releaseRemoved(from store: CacheStore) {
        let now = ContinuousClock.now
        let due = lastRelease.withLock { last -> Bool in
            if let last, now - last < Self.releaseInterval { return false }
            last = now
            return true
        }
        guard due else { return }
        for holder in holders.withLock({ Array($0.values) }) {
            holder.eventLoop.execute { holder.responder.value.responder?.releaseIfRemoved(from: store) }
        }
    }
}
