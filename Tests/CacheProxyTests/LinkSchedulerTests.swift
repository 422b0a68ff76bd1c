@testable import CacheProxy
import Synchronization
import Testing
import TestSupport

/// The rules by which origin transfers share the link: the most urgent ones use it, the others
/// wait, orphans are cut, and a transfer that a more urgent client follows is as urgent.
@Suite("Sharing the link to the origin by urgency", .timeLimit(.minutes(1)))
struct LinkSchedulerTests {
    /// Starts a transfer of `key` at `urgency` that lasts until `release` opens.
    private func hold(_ scheduler: LinkScheduler, _ key: String, _ ownership: FetchOwnership, until release: TestGate) -> Task<Void, any Error> {
        Task {
            try await scheduler.transfer(key: key, range: nil, ownership: ownership) { await release.wait() }
        }
    }

    @Test("A less urgent transfer waits while a more urgent one is in flight, and goes on when it ends")
    func lessUrgentWaits() async throws {
        let scheduler = LinkScheduler()
        let release = TestGate()
        let start = FetchOwnership(urgency: .start)
        let prefetch = FetchOwnership(urgency: .ahead)
        #expect(scheduler.mayProceed(prefetch))
        let urgent = hold(scheduler, "a", start, until: release)
        try await waitUntil("the start transfer is registered") { scheduler.leadingUrgency == .start }
        #expect(!scheduler.mayProceed(prefetch))
        #expect(scheduler.mayProceed(start))
        let waiting = Task { try await scheduler.waitForTurn(prefetch) }
        try await Task.sleep(for: .milliseconds(50))
        #expect(scheduler.census[.start] == 1)
        release.open()
        try await urgent.value
        try await waiting.value
        #expect(scheduler.mayProceed(prefetch))
        #expect(scheduler.leadingUrgency == .orphaned, "no transfer is registered any more")
    }

    @Test("Transfers of the same urgency share the link")
    func sameUrgencyShares() async throws {
        let scheduler = LinkScheduler()
        let release = TestGate()
        let first = FetchOwnership(urgency: .ahead)
        let second = FetchOwnership(urgency: .ahead)
        let held = hold(scheduler, "a", first, until: release)
        try await waitUntil("the first transfer is registered") { scheduler.leadingUrgency == .ahead }
        #expect(scheduler.mayProceed(second))
        try await scheduler.waitForTurn(second)
        release.open()
        try await held.value
    }

    @Test("An orphan does not wait for its turn: it comes back to be cut")
    func orphanComesBack() async throws {
        let scheduler = LinkScheduler()
        let release = TestGate()
        let held = hold(scheduler, "a", FetchOwnership(urgency: .ahead), until: release)
        try await waitUntil("the transfer is registered") { scheduler.leadingUrgency == .ahead }
        let leaving = FetchOwnership(urgency: .deep)
        let waiting = Task { try await scheduler.waitForTurn(leaving) }
        try await Task.sleep(for: .milliseconds(20))
        scheduler.ownerLeft(leaving)
        try await waiting.value
        #expect(leaving.urgency == .orphaned)
        #expect(!scheduler.mayProceed(leaving))
        release.open()
        try await held.value
    }

    @Test("A transfer whose client left is orphaned; the orphans alone share what is left of the link")
    func orphansAlone() async throws {
        let scheduler = LinkScheduler()
        let release = TestGate()
        let ownership = FetchOwnership(urgency: .start)
        let held = hold(scheduler, "a", ownership, until: release)
        try await waitUntil("registered") { scheduler.leadingUrgency == .start }
        scheduler.ownerLeft(ownership)
        #expect(scheduler.leadingUrgency == .orphaned)
        #expect(scheduler.mayProceed(ownership))
        release.open()
        try await held.value
    }

    @Test("A client following a transfer raises it to its own urgency, and keeps it from being orphaned")
    func followersRaise() async throws {
        let scheduler = LinkScheduler()
        let release = TestGate()
        let download = FetchOwnership(urgency: .deep)
        let held = Task {
            try await scheduler.transfer(key: "seg", range: .init(offset: 0, length: 1000), ownership: download) { await release.wait() }
        }
        try await waitUntil("registered") { scheduler.leadingUrgency == .deep }
        scheduler.raise(key: "seg", range: .init(offset: 2000, length: 10), to: .start)
        scheduler.raise(key: "other", range: nil, to: .start)
        #expect(download.urgency == .deep, "neither the range nor the key overlaps")
        scheduler.raise(key: "seg", range: .init(offset: 500, length: 10), to: .start)
        #expect(download.urgency == .start)
        #expect(scheduler.leadingUrgency == .start)
        scheduler.ownerLeft(download)
        #expect(download.urgency == .start, "a followed transfer is not orphaned")
        release.open()
        try await held.value
    }

    @Test("A waiting transfer stops waiting when its task is cancelled")
    func cancellation() async throws {
        let scheduler = LinkScheduler()
        let release = TestGate()
        let held = hold(scheduler, "a", FetchOwnership(urgency: .start), until: release)
        try await waitUntil("registered") { scheduler.leadingUrgency == .start }
        let waiting = Task { try await scheduler.waitForTurn(FetchOwnership(urgency: .deep)) }
        try await Task.sleep(for: .milliseconds(20))
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        release.open()
        try await held.value
    }

    @Test("Within one urgency the lower rank goes first: the next video's head before the one after it")
    func rankOrdersOneUrgency() async throws {
        let scheduler = LinkScheduler()
        let release = TestGate()
        let next = FetchOwnership(urgency: .ahead, rank: FetchRank(0))
        let later = FetchOwnership(urgency: .ahead, rank: FetchRank(1))
        let held = hold(scheduler, "next", next, until: release)
        try await waitUntil("the next video's transfer is registered") { scheduler.leadingUrgency == .ahead }
        #expect(!scheduler.mayProceed(later))
        let waiting = Task { try await scheduler.waitForTurn(later) }
        release.open()
        try await held.value
        try await waiting.value
        #expect(scheduler.mayProceed(later))
        #expect(scheduler.mayProceed(FetchOwnership(urgency: .start, rank: FetchRank(5))), "a start of any rank outranks the heads")
    }

    @Test("A job's held place keeps the next video's background fetches waiting between the job's fetches, until it is released; players' fetches never wait for it")
    func heldPlaceHoldsBackgroundFetchesBehindIt() async throws {
        let scheduler = LinkScheduler()
        let first = FetchRank(0)
        let place = scheduler.holdPlace(FetchOwnership(urgency: .ahead, rank: first, preemptible: true, withdrawable: true))
        // No transfer is registered: without the place, the link would look free.
        #expect(scheduler.leadingUrgency == .orphaned)
        let nextVideo = FetchOwnership(urgency: .ahead, rank: FetchRank(1), preemptible: true)
        let turnCame = Atomic<Bool>(false)
        let waiting = Task {
            try await scheduler.waitForTurn(nextVideo)
            turnCame.store(true, ordering: .relaxed)
        }
        // A player's fetch does not wait behind a place, and neither does the job's own.
        try await scheduler.waitForTurn(FetchOwnership(urgency: .deep))
        try await scheduler.waitForTurn(FetchOwnership(urgency: .ahead, rank: first, preemptible: true))
        try await Task.sleep(for: .milliseconds(100))
        let cameWhileHeld = turnCame.load(ordering: .relaxed)
        #expect(!cameWhileHeld, "the next video's fetch waits behind the place")
        scheduler.releasePlace(place)
        try await waiting.value
        // A withdrawn place (its job left the list) holds nothing.
        let dropped = FetchRank(0)
        let droppedPlace = scheduler.holdPlace(FetchOwnership(urgency: .ahead, rank: dropped, preemptible: true, withdrawable: true))
        dropped.withdraw()
        scheduler.ranksChanged()
        try await scheduler.waitForTurn(FetchOwnership(urgency: .ahead, rank: FetchRank(1), preemptible: true))
        scheduler.releasePlace(droppedPlace)
    }

    @Test("A fetch goes by its job's place now, not the place it had when it began: at a swipe the new first head stops the second's")
    func rankIsReadLive() async throws {
        let scheduler = LinkScheduler()
        let release = TestGate()
        // Begun while its job was second in the app's list (a gap claimed again after a cut).
        let place = FetchRank(1)
        let held = hold(scheduler, "next", FetchOwnership(urgency: .ahead, rank: place), until: release)
        try await waitUntil("the head's transfer is registered") { scheduler.leadingUrgency == .ahead }
        let secondHead = FetchOwnership(urgency: .ahead, rank: FetchRank(1))
        #expect(scheduler.mayProceed(secondHead), "two fetches of one place share the link")
        place.set(0)
        scheduler.ranksChanged()
        #expect(!scheduler.mayProceed(secondHead), "the job now second waits for the one now first")
        place.set(2)
        scheduler.ranksChanged()
        #expect(scheduler.mayProceed(secondHead), "and goes first once the other job falls behind it")
        release.open()
        try await held.value
    }

    @Test("A playing player's segment waits behind the next videos' heads until its escalation, then goes first")
    func bufferingEscalatesAtItsDeadline() async throws {
        let scheduler = LinkScheduler()
        let release = TestGate()
        let head = FetchOwnership(urgency: .ahead, preemptible: true)
        let heldHead = hold(scheduler, "head", head, until: release)
        try await waitUntil("the head's transfer is registered") { scheduler.leadingUrgency == .ahead }
        let playing = FetchOwnership(urgency: .buffering, escalation: .now + .milliseconds(300))
        #expect(!scheduler.mayProceed(playing), "the buffer lasts: the head goes first")
        let heldPlaying = Task {
            try await scheduler.escalating(playing) {
                try await scheduler.waitForTurn(playing)
                try await scheduler.transfer(key: "playing", range: nil, ownership: playing) { await release.wait() }
            }
        }
        try await waitUntil("the segment escalated, stopped waiting and took the link") { scheduler.leadingUrgency == .start }
        #expect(playing.urgency == .start)
        #expect(scheduler.mayProceed(playing))
        #expect(!scheduler.mayProceed(head), "the player's buffer is about to run out")
        release.open()
        try await heldHead.value
        try await heldPlaying.value
    }

    @Test("An escalation after the transfer ended changes nothing")
    func escalationEndsWithItsTransfer() async throws {
        let scheduler = LinkScheduler()
        let playing = FetchOwnership(urgency: .buffering, escalation: .now + .milliseconds(100))
        try await scheduler.escalating(playing) {
            try await scheduler.transfer(key: "a", range: nil, ownership: playing) {}
        }
        try await Task.sleep(for: .milliseconds(300))
        #expect(playing.urgency == .buffering)
        #expect(scheduler.leadingUrgency == .orphaned)
    }

    @Test("A fetch still waiting for its turn is raised by a client that follows its bytes, and goes at once")
    func waitingFetchIsRaised() async throws {
        let scheduler = LinkScheduler()
        let release = TestGate()
        let nextHead = hold(scheduler, "next", FetchOwnership(urgency: .ahead, preemptible: true), until: release)
        try await waitUntil("the next video's head is registered") { scheduler.leadingUrgency == .ahead }
        let dropped = FetchOwnership(urgency: .ahead, rank: FetchRank(1), preemptible: true)
        let waiting = Task { _ = try await scheduler.waitForTurn(dropped, key: "swiped-to", range: .init(offset: 0, length: 100)) }
        try await Task.sleep(for: .milliseconds(50))
        #expect(!scheduler.mayProceed(dropped))
        scheduler.raise(key: "swiped-to", range: .init(offset: 50, length: 10), to: .start)
        try await waiting.value
        #expect(dropped.urgency == .start)
        release.open()
        try await nextHead.value
    }

    @Test("A player's start cuts preemptible transfers at once, followed or not; a player's own transfer is left to pause")
    func startPreemptsBackgroundTransfers() async throws {
        let scheduler = LinkScheduler()
        let release = TestGate()
        let cut = CutTransfers()
        func held(_ name: String, _ ownership: FetchOwnership) -> Task<Void, any Error> {
            Task {
                try await scheduler.transfer(key: name, range: nil, ownership: ownership, preempt: { cut.names.withLock { $0.append(name) } }) {
                    await release.wait()
                }
            }
        }
        let prefetch = held("later", FetchOwnership(urgency: .ahead, rank: FetchRank(1), preemptible: true))
        // A prefetch that a player once followed (it may have swiped away since).
        let followed = FetchOwnership(urgency: .deep, preemptible: true)
        _ = followed.raise(to: .buffering, by: nil)
        let followedPrefetch = held("followed", followed)
        let playersOwn = held("own", FetchOwnership(urgency: .buffering))
        try await waitUntil("the three transfers are registered") { scheduler.census.values.reduce(0, +) == 3 }
        #expect(cut.names.withLock { $0 }.isEmpty, "nothing is cut while no player waits to start")
        let start = hold(scheduler, "start", FetchOwnership(urgency: .start), until: release)
        try await waitUntil("the start is registered") { scheduler.leadingUrgency == .start }
        #expect(cut.names.withLock { $0.sorted() } == ["followed", "later"])
        release.open()
        for task in [prefetch, followedPrefetch, playersOwn, start] { try await task.value }
    }

    @Test("A player's fetch that a prefetch follows is, once the player left, as urgent and as preemptible as the prefetch; one a player follows keeps its urgency")
    func backgroundFollowerInheritsTheFetch() async throws {
        let scheduler = LinkScheduler()
        let release = TestGate()
        // The playing video's next segment, escalated: its player's buffer was about to run out.
        let swipedAway = FetchOwnership(urgency: .buffering)
        #expect(swipedAway.escalate())
        let heldSwiped = hold(scheduler, "v01/seg1", swipedAway, until: release)
        let stillWatched = FetchOwnership(urgency: .buffering)
        let heldWatched = hold(scheduler, "v02/seg1", stillWatched, until: release)
        try await waitUntil("both transfers are registered") { scheduler.census.values.reduce(0, +) == 2 }
        scheduler.raise(key: "v01/seg1", range: nil, to: .deep, backgroundRank: 2)
        scheduler.raise(key: "v02/seg1", range: nil, to: .buffering)
        #expect(swipedAway.urgency == .start, "while its player is there, the player's urgency")
        scheduler.ownerLeft(swipedAway)
        scheduler.ownerLeft(stillWatched)
        #expect(swipedAway.urgency == .deep && swipedAway.priority == FetchOwnership(urgency: .deep, rank: FetchRank(2)).priority)
        #expect(swipedAway.isPreemptible, "a start cuts it, as it cuts the prefetch")
        #expect(stillWatched.urgency == .buffering && !stillWatched.isPreemptible, "another player waits for its bytes")
        let orphan = FetchOwnership(urgency: .buffering)
        orphan.ownerLeft()
        #expect(orphan.urgency == .orphaned && orphan.isPreemptible)
        release.open()
        try await heldSwiped.value
        try await heldWatched.value
    }

    @Test("Two fetches woken together when a start ends: the next video's head asks first, the one after it waits until that head's transfer ends")
    func fetchesWokenTogetherGoInRankOrder() async throws {
        let scheduler = LinkScheduler()
        let startEnds = TestGate()
        let start = hold(scheduler, "start", FetchOwnership(urgency: .start), until: startEnds)
        try await waitUntil("the start is registered") { scheduler.leadingUrgency == .start }
        let nextHead = FetchOwnership(urgency: .ahead, rank: FetchRank(0), preemptible: true)
        let laterHead = FetchOwnership(urgency: .ahead, rank: FetchRank(1), preemptible: true)
        let nextTurn = Task { try await scheduler.waitForTurn(nextHead, key: "next", range: nil) }
        // The later head's turn is recorded as an arrival at this gate, which never opens.
        let laterHasTurn = TestGate()
        let laterTurn = Task { () -> UInt64 in
            let token = try await scheduler.waitForTurn(laterHead, key: "later", range: nil)
            Task { await laterHasTurn.wait() }
            return token
        }
        try await Task.sleep(for: .milliseconds(50))
        startEnds.open()
        try await start.value
        let token = try await nextTurn.value
        // The next head has its turn but has not asked yet (its lane's queue, say): still first.
        try await Task.sleep(for: .milliseconds(100))
        #expect(laterHasTurn.arrivals == 0, "the later head found the link free while the next one was about to ask")
        let nextEnds = TestGate()
        let transfer = Task {
            try await scheduler.transfer(key: "next", range: nil, ownership: nextHead, replacing: token) { await nextEnds.wait() }
        }
        try await waitUntil("the next head's transfer is registered") { scheduler.census[.ahead] == 1 }
        try await Task.sleep(for: .milliseconds(50))
        #expect(laterHasTurn.arrivals == 0 && !scheduler.mayProceed(laterHead), "the later head waits behind it")
        nextEnds.open()
        try await transfer.value
        let laterToken = try await laterTurn.value
        scheduler.forget(laterToken)
        #expect(scheduler.mayProceed(laterHead))
    }

    @Test("A fetch a player raised to a start is no start once every player that followed it left")
    func raisedFetchLosesItsFollowersUrgency() async throws {
        let scheduler = LinkScheduler()
        let release = TestGate()
        // A prefetch's deep fetch of the playing video's next segment.
        let prefetch = FetchOwnership(urgency: .deep, preemptible: true)
        let held = hold(scheduler, "v01/seg1", prefetch, until: release)
        try await waitUntil("the transfer is registered") { scheduler.leadingUrgency == .deep }
        let player = FetchOwnership(urgency: .buffering)
        let helper = FetchOwnership(urgency: .ahead)
        scheduler.raise(key: "v01/seg1", range: nil, to: .buffering, follower: player)
        scheduler.raise(key: "v01/seg1", range: nil, to: .start, follower: player)  // its buffer ran low
        scheduler.raise(key: "v01/seg1", range: nil, to: .ahead, follower: helper)
        #expect(prefetch.urgency == .start)
        scheduler.ownerLeft(player)  // the user swiped away
        // Another player still waits for it: it keeps the most urgent level seen while any follows.
        #expect(prefetch.urgency == .start)
        scheduler.ownerLeft(helper)
        #expect(prefetch.urgency == .deep && scheduler.leadingUrgency == .deep, "the prefetch's own urgency again")
        release.open()
        try await held.value
    }
}

/// The names of the transfers whose `preempt` was called.
private final class CutTransfers: Sendable {
    let names = Mutex<[String]>([])
}
