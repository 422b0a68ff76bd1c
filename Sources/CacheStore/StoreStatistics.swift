/// Counters a store keeps across restarts (saved with its index).
public struct StoreStatistics: Equatable, Sendable {
    /// Reads whose bytes were all cached when asked for.
    public var hits: UInt64 = 0
    /// Reads that needed bytes not yet cached.
    public var misses: UInt64 = 0
    /// Bytes handed to readers from disk.
    public var bytesFromCache: UInt64 = 0
    /// Bytes written by fills (fetched from the origin).
    public var bytesFromOrigin: UInt64 = 0
    /// Entries removed to make room or because they expired.
    public var evictions: UInt64 = 0

    public init() {}

    static let counterCount = 5
    var counters: [UInt64] { [hits, misses, bytesFromCache, bytesFromOrigin, evictions] }

    init(counters: [UInt64]) {
        hits = counters[0]
        misses = counters[1]
        bytesFromCache = counters[2]
        bytesFromOrigin = counters[3]
        evictions = counters[4]
    }
}
