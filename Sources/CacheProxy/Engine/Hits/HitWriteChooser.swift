/// Chooses, for one connection's small hits, between writing the body from the cache file's
/// mapping (one copy into the socket) and `sendfile` (no copy), by what each has been costing.
///
/// Neither is always cheaper. On loopback a copy into the socket is read by the client on
/// another core, and on some machines, in some periods, that transfer costs twice what it
/// usually does: a 64 KiB range then takes 40-46 µs of the proxy's CPU from the mapping against
/// 28-29 with `sendfile`, where it usually takes 23-27 against 28 (Docs/BENCHMARKS.md, "The
/// slow mode"). Whole segments are left out: `sendfile` costs their client twice as much,
/// whatever the period.
///
/// Writes are timed where they are made (the write into the socket is synchronous when the
/// socket has room), and count only when the socket took all of it; the two costs per byte are
/// averaged, and the mapping is preferred unless it costs half again as much as `sendfile`. One
/// hit in ``probeInterval`` takes the other way, so that the average of the way not taken stays
/// current.
struct HitWriteChooser {
    /// The largest body chosen for; larger ones are written from the mapping when they may be.
    static let largestChosen: UInt64 = 256 * 1024
    /// Smaller bodies say little about the cost per byte.
    static let smallestTimed: UInt64 = 4 * 1024
    static let probeInterval = 64
    /// Of the hits that take the preferred way, one in this many is timed: telling whether a
    /// write went out whole (``RawHitHandler``) costs more than the rest of a hit's choice.
    static let timingInterval = 16

    /// How a hit's body is written.
    enum Method {
        case mapping, sendfile
    }

    /// What a hit's body is to be written with.
    struct Choice {
        /// Whether from the mapping (when it may be), else with `sendfile`.
        var fromMapping: Bool
        /// Whether the write is to be timed and recorded: every probe (so that the way not taken
        /// stays measured) and one in ``HitWriteChooser/timingInterval`` of the others.
        var timed: Bool
    }

    /// Nanoseconds per byte, averaged over the last writes (each weighs an eighth).
    private var cost: (mapping: Double?, sendfile: Double?) = (nil, nil)
    private var chosen = 0
    private(set) var prefersSendfile = false

    /// How a body of `length` bytes is to be written.
    mutating func choose(length: UInt64) -> Choice {
        guard length <= Self.largestChosen else { return Choice(fromMapping: true, timed: false) }
        chosen &+= 1
        let probes = chosen % Self.probeInterval == 0
        return Choice(fromMapping: prefersSendfile == probes, timed: probes || chosen % Self.timingInterval == 0)
    }

    /// A body of `length` bytes was written by `method` in `nanoseconds`.
    mutating func record(_ method: Method, length: UInt64, nanoseconds: UInt64) {
        guard length >= Self.smallestTimed, length <= Self.largestChosen else { return }
        let sample = Double(nanoseconds) / Double(length)
        switch method {
        case .mapping: cost.mapping = Self.averaged(cost.mapping, sample)
        case .sendfile: cost.sendfile = Self.averaged(cost.sendfile, sample)
        }
        guard let mapping = cost.mapping, let sendfile = cost.sendfile else { return }
        // Apart enough to switch, and back only well below: a small difference is noise.
        prefersSendfile = mapping > sendfile * (prefersSendfile ? 1.2 : 1.5)
    }

    private static func averaged(_ average: Double?, _ sample: Double) -> Double {
        guard let average else { return sample }
        // A write delayed by preemption says nothing of the method: it counts as four averages.
        return average + (min(sample, 4 * average) - average) / 8
    }
}
