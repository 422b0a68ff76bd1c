import TestSupport
@testable import CacheStore
import SparseFile

/// Deterministic origin bytes: the byte at position p.
func originByte(_ position: UInt64, seed: UInt64 = 1) -> UInt8 {
    var z = (position &+ seed &* 0x9E37_79B9) &* 0xBF58_476D_1CE4_E5B9
    z ^= z >> 29
    return UInt8(truncatingIfNeeded: z)
}

func originBytes(_ offset: UInt64, _ count: Int, seed: UInt64 = 1) -> [UInt8] {
    (0..<UInt64(count)).map { originByte(offset + $0, seed: seed) }
}

func byteRange(_ offset: UInt64, _ length: UInt64) -> ByteRange {
    ByteRange(offset: offset, length: length) ?? ByteRange(offset: 0, length: 0)!
}

extension CacheStore {
    /// All bytes of `range`, or nil when any is missing.
    func cachedBytes(_ key: String, _ range: ByteRange) -> [UInt8]? {
        guard let file = reader(for: key).file, case .bytes(let bytes) = try? file.read(range) else { return nil }
        return bytes
    }
}

/// A configuration for tests: small, no background flushing, no fsync.
func testConfiguration(maximumSize: UInt64 = 64 << 20) -> CacheStoreConfiguration {
    CacheStoreConfiguration(
        maximumSize: maximumSize,
        fileOptions: SparseFileOptions(durability: .none),
        accessFlushInterval: .seconds(3600))
}

extension CacheStore {
    /// How many readers are waiting for bytes of `key` right now: a test that needs a follower
    /// to be waiting before the fill moves waits for this instead of sleeping.
    func followerCount(of key: String) -> Int {
        state.withLock { $0.waiters[key]?.count ?? 0 }
    }

    /// Waits until `count` readers wait for bytes of `key`.
    func waitForFollowers(of key: String, count: Int = 1) async throws {
        try await waitUntil("\(count) follower(s) of \(key) wait") { followerCount(of: key) >= count }
    }
}
