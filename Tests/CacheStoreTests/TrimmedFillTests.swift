@testable import CacheStore
import SparseFile
import Testing
import TestSupport

@Suite("Fills trimmed to the resource's length", .timeLimit(.minutes(1)))
struct TrimmedFillTests {
    @Test("A follower past the end of a fill trimmed at its start is woken when the fill ends")
    func followerPastTrimmedEnd() async throws {
        let directory = TemporaryDirectory("trimmed-fill")
        let store = try CacheStore.open(at: directory.path)
        let range = try #require(ByteRange(from: 500, to: UInt64.max))
        let claim = try store.claim(key: "k", range: range)
        let fill = try #require(claim.fills.first)
        let reader = store.reader(for: "k")
        let follower = Task { try await reader.waitForBytes(at: 500) }
        try await store.waitForFollowers(of: "k")
        // The origin says the resource has 100 bytes: the fill is trimmed to nothing.
        try fill.start(EntryMetadata(contentLength: 100))
        try fill.finish()
        await #expect(throws: CacheStoreError.notCached) { try await follower.cancellableValue }
    }
}
