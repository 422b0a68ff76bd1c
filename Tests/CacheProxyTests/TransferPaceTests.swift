@testable import CacheProxy
import Testing

/// When the rest of a transfer ends soon enough that a start should not cut it.
@Suite("A transfer's pace")
struct TransferPaceTests {
    /// Asked at 0, answered after 200 ms, then `bytes` in the `flowing` seconds after.
    private func pace(bytes: Int, flowing seconds: Double) -> (TransferPace, ContinuousClock.Instant) {
        let asked = ContinuousClock.now
        let answered = asked + .milliseconds(200)
        var pace = TransferPace(askedAt: asked)
        pace.answerArrived(at: answered)
        pace.received(bytes)
        return (pace, answered + .milliseconds(Int64(seconds * 1000)))
    }

    @Test("A rest that arrives within two answer delays at the pace so far ends soon; a longer one does not")
    func restWithinTwoAnswerDelays() {
        // 360 KB/s, as 3 Mbit/s; two answer delays are 0.4 s, 144 KB.
        let (pace, now) = pace(bytes: 360_000, flowing: 1)
        #expect(pace.endsSoon(remaining: 100_000, now: now))
        #expect(pace.endsSoon(remaining: 140_000, now: now))
        #expect(!pace.endsSoon(remaining: 150_000, now: now))
        #expect(!pace.endsSoon(remaining: 1_000_000, now: now))
    }

    @Test("The first bytes' burst says nothing of the pace: before one answer delay of body nothing ends soon")
    func burstIsNotAPace() {
        // 64 KB in 10 ms would be 6.4 MB/s: a 1 MB rest would look 0.16 s away.
        let (pace, now) = pace(bytes: 64_000, flowing: 0.01)
        #expect(!pace.endsSoon(remaining: 1_000, now: now))
        let (later, afterADelay) = self.pace(bytes: 64_000, flowing: 0.2)
        #expect(later.endsSoon(remaining: 1_000, now: afterADelay))
    }

    @Test("Before its answer or its first byte a transfer does not end soon")
    func nothingYet() {
        let asked = ContinuousClock.now
        var pace = TransferPace(askedAt: asked)
        #expect(!pace.endsSoon(remaining: 1, now: asked + .seconds(1)))
        pace.answerArrived(at: asked + .milliseconds(200))
        #expect(!pace.endsSoon(remaining: 1, now: asked + .seconds(1)))
    }
}
