/// The pace of one origin transfer: how long its origin took to answer, and how fast its body
/// has come since. It tells whether the rest of the transfer ends soon enough that cutting it for
/// a player's start would cost more than it saves.
///
/// A cut transfer is asked for again when its bytes are wanted, typically at its own video's
/// start: that start then waits one answer delay of the origin (200 ms on a slow phone link)
/// plus the rest itself. Letting a transfer with little left end instead delays the player
/// waiting now by the rest alone. In the 3 Mbit/s feed benchmark the escalation of a playing
/// player's next segment cut the next video's head with 0.1 MB left, and that video then
/// started in 819 ms instead of 10 ms.
struct TransferPace {
    private let asked: ContinuousClock.Instant
    private var answered: ContinuousClock.Instant?
    private var bodyBytes: UInt64 = 0
    /// How many of the origin's answer delays the rest may take and still end soon.
    static let answerDelays = 2.0

    init(askedAt asked: ContinuousClock.Instant) {
        self.asked = asked
    }

    mutating func answerArrived(at instant: ContinuousClock.Instant) {
        answered = instant
    }

    mutating func received(_ count: Int) {
        bodyBytes &+= UInt64(count)
    }

    /// Whether `remaining` bytes, at the pace the body has come so far, arrive within
    /// ``answerDelays`` of the origin's answer delay. The first bytes of a body come in a burst
    /// (what the link held while the answer was on its way), so the pace counts only once the
    /// body has flowed for one answer delay; until then the transfer does not end soon.
    func endsSoon(remaining: UInt64, now: ContinuousClock.Instant) -> Bool {
        guard let answered, bodyBytes > 0 else { return false }
        let answerDelay = Self.seconds(answered - asked)
        let flowing = Self.seconds(now - answered)
        guard flowing > 0, flowing >= answerDelay else { return false }
        // remaining / (bodyBytes / flowing) <= answerDelays * answerDelay, without a division.
        return Double(remaining) * flowing <= Self.answerDelays * answerDelay * Double(bodyBytes)
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
