/// Which segments a session keeps fetched ahead of its player, and which of those fetches run:
/// a value type without a lock (its session holds it behind one and performs what it returns),
/// in the manner of the proxy's circuit breaker.
///
/// The window is a list of segments, nearest first. At most ``parallel`` fetches run at once,
/// the nearest first; a segment fetched once is not fetched again; one whose fetch failed is
/// tried again only when the window moves. Fetches outside a new window are handed back as
/// candidates to cancel (the session keeps those that are nearly done).
struct SessionBuffer {
    /// A segment of one of the session's timelines.
    struct Slot: Hashable, Sendable {
        var timeline: String
        var segment: Int
    }

    /// Fetches at once for one session: enough to stay ahead of a player, few enough to leave
    /// the segment lane to players and other sessions.
    let parallel: Int
    private(set) var window: [Slot] = []
    private(set) var running: Set<Slot> = []
    private var fetched: Set<Slot> = []
    private var failed: Set<Slot> = []

    init(parallel: Int = 2) {
        self.parallel = max(1, parallel)
    }

    /// The window moves to `slots` (nearest first). Returns the fetches to start and the
    /// running ones that fell outside it.
    mutating func move(to slots: [Slot]) -> (start: [Slot], outside: [Slot]) {
        window = slots
        failed.removeAll()
        let inside = Set(slots)
        let outside = running.filter { !inside.contains($0) }.sorted { ($0.timeline, $0.segment) < ($1.timeline, $1.segment) }
        return (next(), outside)
    }

    /// A fetch ended; returns the fetches to start next.
    mutating func ended(_ slot: Slot, succeeded: Bool) -> [Slot] {
        running.remove(slot)
        if succeeded { fetched.insert(slot) } else { failed.insert(slot) }
        return next()
    }

    /// A segment found cached without a fetch of ours (the player's own request stored it).
    mutating func markFetched(_ slot: Slot) {
        fetched.insert(slot)
    }

    /// Everything stops: returns the fetches to cancel.
    mutating func stop() -> [Slot] {
        window = []
        defer { running.removeAll() }
        return Array(running)
    }

    private mutating func next() -> [Slot] {
        var started: [Slot] = []
        for slot in window where running.count < parallel {
            guard !running.contains(slot), !fetched.contains(slot), !failed.contains(slot) else { continue }
            running.insert(slot)
            started.append(slot)
        }
        return started
    }
}
