/// What the store knows about the free space of its volume, kept without a system call per
/// write: the free bytes `statvfs` reported at the last measurement, less the bytes fills wrote
/// since, plus the disk bytes of entries removed since. A new measurement is due after a
/// quarter of the minimum free space (between 1 MiB and 64 MiB) has been written, or a second
/// after the last one, whichever comes first; one caller measures at a time, outside the lock.
struct FreeSpace {
    /// The free space the store keeps on its volume.
    let minimum: UInt64
    /// Free bytes at the last measurement; nil while unknown (never measured, or `statvfs`
    /// failed), and then the store keeps no minimum.
    private(set) var measured: UInt64?
    private var measuredAt: UInt64 = 0
    private var written: UInt64 = 0
    private var freed: UInt64 = 0
    private var isMeasuring = false
    private var isDue = true
    /// Whether the last write that needed room on the volume found none.
    var isDiskFull = false

    static let interval: UInt64 = 1000

    init(minimum: UInt64) {
        self.minimum = minimum
    }

    /// Bytes written between two measurements.
    var measuringEvery: UInt64 { min(max(minimum / 4, 1 << 20), 64 << 20) }

    /// The free bytes now, as far as the store can tell without asking.
    var estimate: UInt64? { measured.map { ($0 &+ freed) > written ? $0 + freed - written : 0 } }

    /// What a measurement started from: the counts it will replace.
    struct Measurement: Sendable {
        var written: UInt64
        var freed: UInt64
    }

    /// Starts a measurement when one is due and none is running.
    mutating func beginMeasurementIfDue(now: UInt64) -> Measurement? {
        guard !isMeasuring, isDue || written >= measuringEvery || now >= measuredAt + Self.interval else { return nil }
        isMeasuring = true
        return Measurement(written: written, freed: freed)
    }

    /// Records what `statvfs` said; writes and removals since the measurement began still count.
    mutating func record(_ free: UInt64?, for measurement: Measurement, now: UInt64) {
        isMeasuring = false
        isDue = false
        measured = free
        measuredAt = now
        written -= min(written, measurement.written)
        freed -= min(freed, measurement.freed)
    }

    mutating func didWrite(_ count: UInt64) { written &+= count }
    mutating func didFree(_ count: UInt64) { freed &+= count }

    /// After the disk said it is full: measure again before the next decision.
    mutating func measureSoon() { isDue = true }

    /// Whether `incoming` more bytes keep the minimum free.
    func hasRoom(for incoming: UInt64) -> Bool {
        guard let estimate else { return true }
        return estimate >= minimum && estimate - minimum >= incoming
    }
}
