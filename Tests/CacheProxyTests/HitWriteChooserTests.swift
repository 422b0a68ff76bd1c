@testable import CacheProxy
import Testing

/// The choice between writing a small hit from the mapping and `sendfile` follows what each
/// costs: the mapping while it is not much dearer, `sendfile` while it is, and the way not
/// taken keeps being tried.
@Suite("Choosing how a hit's body is written")
struct HitWriteChooserTests {
    private static let range: UInt64 = 65536

    /// Makes `count` choices for 64 KiB bodies, each written at the cost per byte of its way and
    /// recorded when the chooser asks for it to be timed; returns how many were written from
    /// the mapping.
    private func serve(_ chooser: inout HitWriteChooser, count: Int, mapping: Double, sendfile: Double) -> Int {
        var fromMapping = 0
        for _ in 0..<count {
            let choice = chooser.choose(length: Self.range)
            let method: HitWriteChooser.Method = choice.fromMapping ? .mapping : .sendfile
            if method == .mapping { fromMapping += 1 }
            let cost = method == .mapping ? mapping : sendfile
            if choice.timed {
                chooser.record(method, length: Self.range, nanoseconds: UInt64(cost * Double(Self.range)))
            }
        }
        return fromMapping
    }

    @Test("Every probe is timed, and one in timingInterval of the other hits; whole segments are not")
    func timedWrites() {
        var chooser = HitWriteChooser()
        var timed = (probes: 0, others: 0)
        for _ in 0..<6400 {
            let choice = chooser.choose(length: Self.range)
            if choice.timed {
                if choice.fromMapping { timed.others += 1 } else { timed.probes += 1 }
            }
        }
        #expect(timed.probes == 6400 / HitWriteChooser.probeInterval)
        #expect(timed.others == 6400 / HitWriteChooser.timingInterval - 6400 / HitWriteChooser.probeInterval)
        #expect(!chooser.choose(length: 2_000_000).timed)
    }

    @Test("The mapping is kept while it costs about what sendfile does, and sendfile is still tried")
    func mappingWhileCheap() {
        var chooser = HitWriteChooser()
        let fromMapping = serve(&chooser, count: 6400, mapping: 0.40, sendfile: 0.43)
        #expect(!chooser.prefersSendfile)
        #expect(fromMapping == 6400 - 6400 / HitWriteChooser.probeInterval)
    }

    @Test("Sendfile is chosen while copies cost half again as much, and the mapping again once they do not")
    func followsTheCost() {
        var chooser = HitWriteChooser()
        _ = serve(&chooser, count: 640, mapping: 0.40, sendfile: 0.43)
        // The slow mode: copies read on the other core cost twice as much.
        let slow = serve(&chooser, count: 6400, mapping: 0.85, sendfile: 0.45)
        #expect(chooser.prefersSendfile)
        #expect(slow < 6400 / 10, "the mapping was kept for \(slow) of 6,400 hits")
        // Back to normal: the mapping's probes see it, and it is chosen again.
        let normal = serve(&chooser, count: 6400, mapping: 0.40, sendfile: 0.43)
        #expect(!chooser.prefersSendfile)
        #expect(normal > 6400 * 8 / 10, "the mapping was chosen for only \(normal) of 6,400 hits")
    }

    @Test("A difference within the margins does not flip the choice back and forth")
    func hysteresis() {
        var chooser = HitWriteChooser()
        _ = serve(&chooser, count: 640, mapping: 0.80, sendfile: 0.40)
        #expect(chooser.prefersSendfile)
        // 1.3 times: too little to choose sendfile, too much to go back to the mapping.
        _ = serve(&chooser, count: 6400, mapping: 0.52, sendfile: 0.40)
        #expect(chooser.prefersSendfile)
    }

    @Test("A write delayed by preemption does not turn the choice")
    func outliers() {
        var chooser = HitWriteChooser()
        _ = serve(&chooser, count: 640, mapping: 0.40, sendfile: 0.43)
        chooser.record(.mapping, length: Self.range, nanoseconds: 5_000_000)  // a 5 ms write
        #expect(!chooser.prefersSendfile)
    }

    @Test("Whole segments and tiny bodies are not chosen for or timed")
    func sizes() {
        var chooser = HitWriteChooser()
        _ = serve(&chooser, count: 640, mapping: 0.80, sendfile: 0.40)
        #expect(chooser.prefersSendfile)
        let segmentFromMapping = chooser.choose(length: 2_000_000).fromMapping
        #expect(segmentFromMapping)
        var fresh = HitWriteChooser()
        fresh.record(.mapping, length: 1000, nanoseconds: 1_000_000)
        fresh.record(.sendfile, length: 1000, nanoseconds: 1)
        fresh.record(.mapping, length: 2_000_000, nanoseconds: 1_000_000_000)
        fresh.record(.sendfile, length: 2_000_000, nanoseconds: 1)
        #expect(!fresh.prefersSendfile)
    }
}
