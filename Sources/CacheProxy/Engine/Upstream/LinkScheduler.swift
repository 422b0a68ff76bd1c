import SparseFile
import Synchronization

/// Gives the link to the origin to the most urgent fetches in flight (by urgency, then rank).
///
/// A phone's link is one narrow pipe that every connection shares, and TCP shares it evenly:
/// two prefetch transfers beside a starting video leave that video a third of the bandwidth.
/// So every origin transfer registers here with its ``FetchOwnership``; a transfer less urgent
/// than the most urgent one registered waits before it sends its request and pauses between
/// two chunks of its body (it stops reading: the socket's buffer fills and TCP stops the origin
/// sending), and goes on, from where it stopped, once nothing more urgent is in flight. An
/// orphaned transfer is cut instead of paused (its bytes are wanted by nobody now), and so is a
/// preemptible one (``FetchOwnership/isPreemptible``) while a player waits to start: a paused socket
/// keeps receiving until its buffer is full. A preemptible transfer whose rest ends soon is only
/// paused: asked for again later, its video's start would wait for the origin's answer
/// (``TransferPace``).
///
/// The check between chunks is one atomic load; the lock is taken when a transfer starts or
/// ends, when an urgency changes, and by paused transfers.
final class LinkScheduler: Sendable {
    private struct Transfer {
        var key: String
        var range: ByteRange?
        var ownership: FetchOwnership
        /// Cuts the transfer at once, wherever it is (see ``transfer(key:range:ownership:preempt:_:)``).
        var preempt: (@Sendable () -> Void)? = nil
    }

    private struct State {
        var transfers: [UInt64: Transfer] = [:]
        /// Fetches waiting for their turn before they ask the origin: a client that follows
        /// their bytes raises them too (they hold claimed bytes that it waits for).
        var waiting: [UInt64: Transfer] = [:]
        /// Places held by prefetch jobs for their whole start (``holdPlace(_:)``): background
        /// fetches ranked after one wait, even between two of its fetches.
        var places: [UInt64: FetchOwnership] = [:]
        var nextTransfer: UInt64 = 0
        /// Paused transfers, woken at every change to look again.
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter: UInt64 = 0
        /// Counts changes, so that a transfer about to pause does not miss one.
        var generation: UInt64 = 0
    }

    private let state = Mutex(State())
    /// The priority (``FetchOwnership/priority``) of the most urgent transfer registered.
    private let leading = Atomic<Int>(FetchOwnership.idlePriority)

    /// The most urgent transfer's urgency now.
    var leadingUrgency: FetchUrgency { FetchOwnership.urgency(ofPriority: leading.load(ordering: .relaxed)) }

    /// Whether a transfer owned by `ownership` may use the link now.
    func mayProceed(_ ownership: FetchOwnership) -> Bool {
        ownership.priority <= leading.load(ordering: .relaxed)
    }

    /// Runs `body` (one origin transfer of `range` of `key`) registered with `ownership`'s urgency.
    /// `preempt`, if given, is called when a player starts to wait while the transfer is
    /// preemptible (``FetchOwnership/isPreemptible``) and less urgent: it cuts the transfer at
    /// once, even while its request waits for the origin's answer, whose first window would
    /// otherwise arrive on the link the player needs before the transfer could stop reading.
    /// `replacing` names the wait (``waitForTurn(_:key:range:)``) that this transfer ends.
    func transfer<T>(
        key: String, range: ByteRange?, ownership: FetchOwnership, replacing waiting: UInt64? = nil,
        preempt: (@Sendable () -> Void)? = nil, _ body: () async throws -> T
    ) async throws -> T {
        let identifier = state.withLock { state -> UInt64 in
            if let waiting { state.waiting[waiting] = nil }
            state.nextTransfer += 1
            state.transfers[state.nextTransfer] = Transfer(key: key, range: range, ownership: ownership, preempt: preempt)
            return state.nextTransfer
        }
        reevaluate()
        defer {
            state.withLock { _ = $0.transfers.removeValue(forKey: identifier) }
            reevaluate()
        }
        return try await body()
    }

    /// Runs `body` (the fetches of `ownership`, from the wait for their turn to their end) and
    /// raises `ownership` to a start at its ``FetchOwnership/escalation``, if it has one.
    func escalating<T>(_ ownership: FetchOwnership, _ body: () async throws -> T) async rethrows -> T {
        guard let deadline = ownership.escalation else { return try await body() }
        let escalation = Task { [weak self] in
            try? await Task.sleep(until: deadline, clock: .continuous)
            guard !Task.isCancelled, ownership.escalate() else { return }
            self?.reevaluate()
        }
        defer { escalation.cancel() }
        return try await body()
    }

    /// Waits until a transfer owned by `ownership` may use the link, or is orphaned (its caller
    /// then cuts it). Throws when the task is cancelled (a preemptible transfer paused here is
    /// cut by its `preempt`, see ``transfer(key:range:ownership:replacing:preempt:_:)``).
    func waitForTurn(_ ownership: FetchOwnership) async throws {
        try await waitUntilItsTurn(ownership)
    }

    /// Waits, as ``waitForTurn(_:)``, for the turn of a fetch of `range` of `key` that
    /// has not asked the origin yet. It stays listed, so that ``raise(key:range:to:follower:backgroundRank:)``
    /// finds it and so that less urgent fetches wait behind it, until its transfer takes its
    /// place (``transfer(key:range:ownership:replacing:preempt:_:)``) or ``forget(_:)`` drops it.
    /// Returns what names it to those two.
    func waitForTurn(_ ownership: FetchOwnership, key: String, range: ByteRange?) async throws -> UInt64 {
        let identifier = state.withLock { state -> UInt64 in
            state.nextTransfer += 1
            state.waiting[state.nextTransfer] = Transfer(key: key, range: range, ownership: ownership)
            return state.nextTransfer
        }
        do {
            try await waitUntilItsTurn(ownership, beforeAsking: true)
        } catch {
            forget(identifier)
            throw error
        }
        return identifier
    }

    /// Holds a place at `ownership`'s priority until ``releasePlace(_:)``: a prefetch job's
    /// start. A job fetches its resources one after another, and between two of them (a
    /// playlist parsed, a segment stored) it has no fetch registered; the next video's job,
    /// waiting for its turn, would find the link free then and ask for its own segment first.
    /// Only background fetches (``FetchOwnership/isBackground``) wait behind a place: a
    /// player's fetch never does, since the job may itself be waiting for that player's bytes.
    /// A withdrawn place (its job left the list) holds nothing. Returns what names it.
    func holdPlace(_ ownership: FetchOwnership) -> UInt64 {
        state.withLock { state in
            state.nextTransfer += 1
            state.places[state.nextTransfer] = ownership
            return state.nextTransfer
        }
    }

    /// The job's start has ended: the fetches behind its place look again.
    func releasePlace(_ place: UInt64) {
        let removed = state.withLock { $0.places.removeValue(forKey: place) != nil }
        if removed { reevaluate() }
    }

    /// A fetch that waited for its turn will not transfer (cancelled, failed before it asked):
    /// those behind it look again.
    func forget(_ waiting: UInt64) {
        let removed = state.withLock { $0.waiting.removeValue(forKey: waiting) != nil }
        if removed { reevaluate() }
    }

    /// `beforeAsking`: the fetch has not asked the origin yet, and gives up (a `CancellationError`)
    /// once withdrawn (``FetchOwnership/isWithdrawn``), rather than ask for bytes nobody wants.
    private func waitUntilItsTurn(_ ownership: FetchOwnership, beforeAsking: Bool = false) async throws {
        while true {
            if beforeAsking, ownership.isWithdrawn { throw CancellationError() }
            // A more urgent fetch about to ask goes first: woken together when a start ends, the
            // next video's head and the one after it would otherwise both find the link free.
            let (generation, outranked) = state.withLock { state in
                let priority = ownership.priority
                let behindFetch = state.waiting.values.contains { $0.ownership.priority < priority }
                let behindPlace = ownership.isBackground
                    && state.places.values.contains { !$0.isWithdrawn && $0.priority < priority }
                return (state.generation, behindFetch || behindPlace)
            }
            if mayProceed(ownership), !outranked { return }
            if ownership.urgency == .orphaned { return }
            try Task.checkCancellation()
            await waitForChange(after: generation)
        }
    }

    /// The client of `ownership` went away: its transfers become orphaned unless followed, and
    /// the transfers of others it followed stop counting it.
    func ownerLeft(_ ownership: FetchOwnership) {
        ownership.ownerLeft()
        ownership.stopFollowing()
        reevaluate()
    }

    /// A client at `urgency` waits for bytes of `range` (nil: the whole resource) of `key` that
    /// transfers of others are fetching: they become at least as urgent as that client, and are
    /// not orphaned when their own client leaves. The client's own transfers (`follower`) are
    /// left as they are. A prefetch or a download (`backgroundRank`: its rank) keeps them only
    /// as urgent, and as preemptible, as itself once their own client left
    /// (``FetchOwnership/raiseInBackground(to:rank:)``).
    func raise(key: String, range: ByteRange?, to urgency: FetchUrgency, follower: FetchOwnership? = nil, backgroundRank: Int? = nil) {
        let changed = state.withLock { state -> Bool in
            var changed = false
            for transfer in Array(state.transfers.values) + state.waiting.values
            where transfer.key == key && transfer.ownership !== follower && Self.overlap(transfer.range, range) {
                let raised = if let backgroundRank {
                    transfer.ownership.raiseInBackground(to: urgency, rank: backgroundRank)
                } else {
                    transfer.ownership.raise(to: urgency, by: follower)
                }
                if raised { changed = true }
            }
            return changed
        }
        if changed { reevaluate() }
    }

    private static func overlap(_ lhs: ByteRange?, _ rhs: ByteRange?) -> Bool {
        guard let lhs, let rhs else { return true }
        return lhs.overlaps(rhs)
    }

    /// Some ``FetchRank`` changed: the transfers look at their priorities again.
    func ranksChanged() {
        reevaluate()
    }

    /// Transfers registered now, by urgency (for `/status`).
    var census: [FetchUrgency: Int] {
        state.withLock { state in
            var counts: [FetchUrgency: Int] = [:]
            for transfer in state.transfers.values { counts[transfer.ownership.urgency, default: 0] += 1 }
            return counts
        }
    }

    /// Looks at the urgencies again and wakes every paused transfer to look too.
    private func reevaluate() {
        let (waiters, preemptions) = state.withLock { state -> ([CheckedContinuation<Void, Never>], [@Sendable () -> Void]) in
            let most = state.transfers.values.map(\.ownership.priority).min() ?? FetchOwnership.idlePriority
            leading.store(most, ordering: .relaxed)
            state.generation &+= 1
            var preemptions: [@Sendable () -> Void] = []
            if FetchOwnership.urgency(ofPriority: most) == .start {
                for transfer in state.transfers.values where transfer.ownership.priority > most && transfer.ownership.isPreemptible {
                    if let preempt = transfer.preempt { preemptions.append(preempt) }
                }
            }
            defer { state.waiters.removeAll() }
            return (Array(state.waiters.values), preemptions)
        }
        for preempt in preemptions { preempt() }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns at the next change after `generation`, or at once when the task is cancelled.
    private func waitForChange(after generation: UInt64) async {
        let identifier = state.withLock { state -> UInt64 in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let registered = state.withLock { state -> Bool in
                    guard state.generation == generation, !Task.isCancelled else { return false }
                    state.waiters[identifier] = continuation
                    return true
                }
                if !registered { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: identifier) }?.resume()
        }
    }
}
