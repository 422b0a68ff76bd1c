import CacheProxyParsing
import CacheStore
import Logging
import SparseFile
import HLS
import Synchronization

/// One playback session at work: the timelines its player plays, the player's position on the
/// main one, and the fetches that keep the asked-for amount cached ahead of it.
///
/// Decisions are made under the session's lock by ``SessionBuffer``; fetches start and stop
/// outside the decisions' critical section (a fetch is a task on the segment lane, through
/// ``ResourceWarmer``, so it caches exactly what a player's request would). A closed session
/// cancels every fetch it started; what they cached stays in the store as ordinary entries.
/// An idle session is suspended, not closed: its fetches are cancelled the same way, but it
/// keeps its timelines and the player's position, and the player's next request resumes it.
final class SessionEngine: Sendable {
    let id: String
    let request: PlaybackSessionRequest
    let presentation: SessionPresentation
    let traffic = SessionTraffic()
    private let environment: FetchEnvironment
    private let state: Mutex<State>
    private let clock = ContinuousClock()

    private struct State {
        var isClosed = false
        /// Idle: no fetch runs and none starts until the player's next request resumes it.
        var isSuspended = false
        /// How many times the session came back from idle.
        var resumes = 0
        /// Bumped by each suspension, so that a fetch cancelled by it that ends after the
        /// session resumed cannot clear the slot of the fetch that replaced it.
        var generation: UInt64 = 0
        var lastActivity: ContinuousClock.Instant
        var timelines: [String: SessionTimeline] = [:]
        /// What each media playlist of the multivariant playlist is, by playlist key.
        var roles: [String: SessionTimeline.Role] = [:]
        /// The playlist key of the timeline the position is measured on.
        var main: String?
        var position: Int?
        var buffer = SessionBuffer()
        var fetches: [SessionBuffer.Slot: Task<Void, Never>] = [:]
        /// Callers waiting for the buffer to change (a fetch ended, the session closed).
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter: UInt64 = 0
        /// Where the first media playlist answer stands: only that answer waits for the start
        /// buffer, together with every request that arrives while it waits.
        var start = StartAnswer.notAsked
    }

    init(id: String, request: PlaybackSessionRequest, presentation: SessionPresentation, environment: FetchEnvironment) {
        self.id = id
        self.request = request
        self.presentation = presentation
        self.environment = environment
        state = Mutex(State(lastActivity: ContinuousClock.now))
    }

    /// How much the session keeps fetched ahead of the player, when anything.
    var aheadAmount: PlaybackSessionRequest.Amount? {
        request.bufferAhead ?? (request.hideUntilBuffered ? .segments(3) : nil)
    }

    /// How much the first media playlist answer waits for, when anything: a hiding session waits
    /// for at least one segment, since a playlist listing none makes players give up.
    var startAmount: PlaybackSessionRequest.Amount? {
        if let startBuffer = request.startBuffer { return startBuffer }
        return request.hideUntilBuffered ? .segments(1) : nil
    }

    // MARK: Activity

    var isClosed: Bool { state.withLock { $0.isClosed } }

    var isSuspended: Bool { state.withLock { $0.isSuspended } }

    /// When the session's player last made a request (what least recently used means among
    /// idle sessions).
    var lastActivity: ContinuousClock.Instant { state.withLock { $0.lastActivity } }

    /// A request of the session's player arrived: an idle session resumes, and its buffering
    /// starts again from the player's position. Returns whether this request resumed it (of
    /// requests arriving at once, exactly one does).
    @discardableResult
    func touch() -> Bool {
        let resumed = state.withLock { state -> Bool in
            state.lastActivity = clock.now
            guard state.isSuspended, !state.isClosed else { return false }
            state.isSuspended = false
            state.resumes += 1
            return true
        }
        if resumed { rebuffer() }
        return resumed
    }

    /// Whether the session is active, none of its player's requests is being answered, and
    /// none started or ended for its idle timeout (a player downloading a long segment over a
    /// slow link is not paused).
    func isIdle(at now: ContinuousClock.Instant) -> Bool {
        guard traffic.activeRequests == 0 else { return false }
        return state.withLock { !$0.isClosed && !$0.isSuspended && now - $0.lastActivity >= request.idleTimeout }
    }

    /// The session went idle: its fetches are cancelled at once and nothing starts until
    /// ``touch()``; its URLs, timelines and position stay. Returns how many fetches it
    /// cancelled.
    @discardableResult
    func suspend() -> Int {
        stopFetching(when: { state in
            guard !state.isClosed, !state.isSuspended else { return false }
            state.isSuspended = true
            state.generation += 1
            return true
        })
    }

    /// Stops the session: its fetches are cancelled at once and nothing starts again. Returns
    /// how many fetches it cancelled.
    @discardableResult
    func close() -> Int {
        stopFetching(when: { state in
            guard !state.isClosed else { return false }
            state.isClosed = true
            return true
        })
    }

    /// Cancels every fetch and wakes every waiter, when `transition` (run under the lock) says
    /// the session stops fetching now. Returns how many fetches it cancelled.
    private func stopFetching(when transition: (inout State) -> Bool) -> Int {
        let (fetches, waiters) = state.withLock { state -> ([Task<Void, Never>], [CheckedContinuation<Void, Never>]) in
            guard transition(&state) else { return ([], []) }
            _ = state.buffer.stop()
            defer {
                state.fetches.removeAll()
                state.waiters.removeAll()
            }
            return (Array(state.fetches.values), Array(state.waiters.values))
        }
        for fetch in fetches { fetch.cancel() }
        for waiter in waiters { waiter.resume() }
        return fetches.count
    }

    // MARK: Timelines and position

    /// The timeline of a media playlist the player asked for (or the session loaded for it).
    /// The first main timeline becomes the one the position is measured on.
    func register(_ timeline: SessionTimeline) {
        let isNew = state.withLock { state -> Bool in
            guard !state.isClosed else { return false }
            let isNew = state.timelines[timeline.playlistKey] == nil
            state.timelines[timeline.playlistKey] = timeline
            if state.main == nil, case .main = timeline.role { state.main = timeline.playlistKey }
            return isNew
        }
        if isNew { rebuffer() }
    }

    func timeline(_ playlistKey: String) -> SessionTimeline? {
        state.withLock { $0.timelines[playlistKey] }
    }

    /// Learns from a multivariant playlist which media playlists are variants (and their audio
    /// group) and which are renditions.
    func learnRoles(from multivariant: HLSPlaylist, url: String) {
        guard let base = HLSBaseURL(url) else { return }
        var roles: [String: SessionTimeline.Role] = [:]
        func key(_ uri: String) -> String? {
            (try? OriginURL(parsing: base.resolve(uri))).map { environment.store.key(for: $0.string) }
        }
        for rendition in multivariant.renditions {
            if let uri = rendition.uri, let key = key(uri) { roles[key] = .rendition(type: rendition.type, groupID: rendition.groupID) }
        }
        for variant in multivariant.variants where !variant.isIFrameOnly {
            if let key = key(variant.uri) { roles[key] = .main(audioGroup: variant.audio) }
        }
        state.withLock { $0.roles.merge(roles) { _, new in new } }
    }

    /// What the media playlist with `playlistKey` is to the session: a variant, a rendition, or
    /// (unknown to the multivariant playlist) a main timeline of its own.
    func role(of playlistKey: String) -> SessionTimeline.Role {
        state.withLock { $0.roles[playlistKey] } ?? .main(audioGroup: nil)
    }

    /// The player asked for bytes of `key` from `offset`: when they are a segment of a main
    /// timeline, that is the player's position now (a request on another main timeline is the
    /// player switching variants), and the window moves.
    func playerRequested(key: String, offset: UInt64?) {
        let moved = state.withLock { state -> Bool in
            guard !state.isClosed else { return false }
            for (playlistKey, timeline) in state.timelines {
                let previous = state.main == playlistKey ? state.position : nil
                guard case .main = timeline.role, let segment = timeline.segment(key: key, offset: offset, after: previous) else { continue }
                let changed = state.main != playlistKey || state.position != segment
                state.main = playlistKey
                state.position = segment
                return changed
            }
            return false
        }
        if moved { rebuffer() }
    }

    /// The window after the current position, per the session's amount and head limit.
    private func window(in state: State) -> [SessionBuffer.Slot] {
        guard let mainKey = state.main, let main = state.timelines[mainKey] else { return [] }
        var amount = aheadAmount
        if state.position == nil, let start = startAmount {
            // Before the player's first segment, the start buffer is fetched too.
            amount = amount.map { Self.larger($0, start, on: main) } ?? start
        }
        guard let amount else { return [] }
        let companions: [SessionTimeline]
        if case .main(let audioGroup?) = main.role {
            companions = state.timelines.values.filter { $0.role == .rendition(type: "AUDIO", groupID: audioGroup) }
        } else {
            companions = []
        }
        return BufferWindow.slots(main: main, position: state.position, amount: amount, limit: request.headSegments, companions: companions)
    }

    private static func larger(_ lhs: PlaybackSessionRequest.Amount, _ rhs: PlaybackSessionRequest.Amount, on timeline: SessionTimeline) -> PlaybackSessionRequest.Amount {
        func seconds(_ amount: PlaybackSessionRequest.Amount) -> Double {
            switch amount {
            case .seconds(let seconds): seconds
            case .segments(let count): timeline.times.duration(of: 0..<min(count, timeline.count))
            }
        }
        return seconds(lhs) >= seconds(rhs) ? lhs : rhs
    }

    // MARK: Fetching

    /// Moves the window to where it belongs now, starts what it lacks and cancels what left it.
    private func rebuffer() {
        let (started, outside) = state.withLock { state -> ([SessionBuffer.Slot], [(SessionBuffer.Slot, Task<Void, Never>)]) in
            guard !state.isClosed, !state.isSuspended else { return ([], []) }
            let (start, outside) = state.buffer.move(to: window(in: state))
            return (start, outside.compactMap { slot in state.fetches[slot].map { (slot, $0) } })
        }
        start(started)
        for (slot, fetch) in outside where !isNearlyDone(slot) {
            fetch.cancel()
        }
    }

    /// A fetch outside a moved window is finished anyway when most of it is cached, or little
    /// is left: fetching it again later would cost more.
    private func isNearlyDone(_ slot: SessionBuffer.Slot) -> Bool {
        guard let timeline = timeline(slot.timeline), let media = timeline.segments[slot.segment].media,
              let file = environment.store.reader(for: media.key).file else { return false }
        let range = media.range ?? file.contentLength.flatMap { ByteRange(offset: 0, length: $0) }
        guard let range else { return false }
        let cached = min(file.cachedLength(from: range.offset), range.length)
        return range.length - cached <= Self.nearlyDoneBytes || cached * 4 >= range.length * 3
    }

    /// What "little is left" means for a fetch leaving the window.
    static let nearlyDoneBytes: UInt64 = 256 * 1024

    private func start(_ slots: [SessionBuffer.Slot]) {
        let generation = state.withLock { $0.generation }
        for slot in slots {
            let task = Task { [weak self] in
                guard let self else { return }
                let succeeded = await self.fetch(slot)
                self.fetchEnded(slot, succeeded: succeeded, generation: generation)
            }
            let registered = state.withLock { state -> Bool in
                guard !state.isClosed, state.generation == generation, state.buffer.running.contains(slot) else { return false }
                state.fetches[slot] = task
                return true
            }
            if !registered { task.cancel() }
        }
    }

    private func fetch(_ slot: SessionBuffer.Slot) async -> Bool {
        guard let segment = timeline(slot.timeline)?.segments[slot.segment], let media = segment.media else { return true }
        let warmer = ResourceWarmer(environment: environment, lane: .segment, urgency: urgency(of: slot), session: traffic,
                                    headers: request.headers)
        do {
            for resource in segment.prerequisites + [media] {
                try await warmer.bytes(resource.origin, range: resource.range)
            }
            return true
        } catch {
            if !(error is CancellationError) {
                environment.logger.debug("session buffering failed", metadata: ["session": "\(id)", "url": "\(media.origin)", "error": "\(error)"])
            }
            return false
        }
    }

    /// The start buffer is a start; the next segments after the player's position are as
    /// urgent as a playing player's own requests; the rest of the window is deeper buffering.
    private func urgency(of slot: SessionBuffer.Slot) -> FetchUrgency {
        guard let position = state.withLock({ $0.position }) else { return .start }
        return slot.segment - position <= Self.nearSegments ? .ahead : .deep
    }

    /// Segments after the position that count as the player's next ones.
    static let nearSegments = 2

    private func fetchEnded(_ slot: SessionBuffer.Slot, succeeded: Bool, generation: UInt64) {
        let (next, waiters) = state.withLock { state -> ([SessionBuffer.Slot], [CheckedContinuation<Void, Never>]) in
            // A fetch the session's suspension cancelled: its slot is no longer its own.
            guard !state.isClosed, state.generation == generation else { return ([], []) }
            state.fetches[slot] = nil
            let next = state.buffer.ended(slot, succeeded: succeeded)
            defer { state.waiters.removeAll() }
            return (next, Array(state.waiters.values))
        }
        for waiter in waiters { waiter.resume() }
        start(next)
    }

    // MARK: Waiting for the start buffer

    /// The session's first media playlist answer, which waits for the start buffer.
    private enum StartAnswer {
        case notAsked
        /// The first request waits; so does every other request arriving before the answer is
        /// given (players and their helpers ask twice at once), until the same deadline.
        case waiting(until: ContinuousClock.Instant)
        /// The start was cached, or its deadline passed: answers no longer wait.
        case given
    }

    /// Waits, until the session's first media playlist answer is given, for the start amount to
    /// be cached from the first segment of `timeline`, or the start timeout to pass. Every
    /// request that arrives before that answer is given waits too, to the same deadline: a
    /// second request at the same moment must not get a playlist that lists nothing yet.
    func waitForStart(of timeline: SessionTimeline) async {
        guard let amount = startAmount, !timeline.isLive else { return }
        let deadline = state.withLock { state -> ContinuousClock.Instant? in
            switch state.start {
            case .given: return nil
            case .waiting(let deadline): return deadline
            case .notAsked:
                let deadline = clock.now + request.startTimeout
                state.start = .waiting(until: deadline)
                return deadline
            }
        }
        guard let deadline else { return }
        while !isClosed, !Task.isCancelled, clock.now < deadline, !isStartCached(amount, of: timeline) {
            await waitForChange(until: deadline)
        }
        // A client that went away leaves the answer to the next request, with the same deadline.
        if !Task.isCancelled {
            state.withLock { $0.start = .given }
        }
    }

    private func isStartCached(_ amount: PlaybackSessionRequest.Amount, of timeline: SessionTimeline) -> Bool {
        let cached = timeline.cachedPrefix(store: environment.store)
        switch amount {
        case .segments(let count): return cached >= min(count, timeline.count)
        case .seconds(let seconds): return timeline.times.startTime(ofSegment: cached) >= min(seconds, timeline.times.totalDuration)
        }
    }

    /// Returns once a fetch of the session ends, it closes, or `deadline` passes.
    private func waitForChange(until deadline: ContinuousClock.Instant) async {
        let identifier = state.withLock { state -> UInt64 in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let timer = Task { [weak self] in
            try? await Task.sleep(until: deadline, clock: .continuous)
            self?.resumeWaiter(identifier)
        }
        // A client that goes away (its request's task cancelled) stops waiting at once.
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let registered = state.withLock { state -> Bool in
                    guard !state.isClosed, !Task.isCancelled, clock.now < deadline else { return false }
                    state.waiters[identifier] = continuation
                    return true
                }
                if !registered { continuation.resume() }
            }
        } onCancel: {
            resumeWaiter(identifier)
        }
        timer.cancel()
    }

    private func resumeWaiter(_ identifier: UInt64) {
        state.withLock { $0.waiters.removeValue(forKey: identifier) }?.resume()
    }

    // MARK: Reporting

    /// The session's state now: position, buffer and traffic.
    var status: PlaybackSessionStatus {
        let (main, position, isClosed, isSuspended, lastActivity, resumes) = state.withLock { state in
            (state.main.flatMap { state.timelines[$0] }, state.position, state.isClosed, state.isSuspended, state.lastActivity, state.resumes)
        }
        var buffered = (segments: 0, seconds: 0.0)
        if let main {
            let first = min(position.map { $0 + 1 } ?? 0, main.count)
            var end = first
            while end < main.count, main.isCached(end, store: environment.store) { end += 1 }
            buffered = (end - first, main.times.duration(of: first..<end))
        }
        let idle = clock.now - lastActivity
        return PlaybackSessionStatus(
            id: id, state: isClosed ? .closed : isSuspended ? .idle : .active, playlist: presentation.playlistURL, urls: request.urls.map(\.string),
            quality: presentation.lockedQuality,
            position: position.flatMap { index in main.map { .init(segment: index, seconds: $0.times.startTime(ofSegment: index)) } },
            bufferedSegments: buffered.segments, bufferedAheadSeconds: buffered.seconds, activeRequests: traffic.activeRequests,
            latencyMs: traffic.medianLatencyMilliseconds, bytesServed: traffic.bytesServed, bytesFromOrigin: traffic.bytesFetched,
            idleSeconds: Double(idle.components.seconds) + Double(idle.components.attoseconds) / 1e18,
            lastError: traffic.lastFailure, headers: request.headers.names, resumes: resumes)
    }
}
