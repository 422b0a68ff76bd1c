import Foundation
import Synchronization
import Testing
import TestSupport
@testable import CacheStore
import SparseFile

@Suite("Fills, followers and coalescing", .timeLimit(.minutes(1)))
struct FillTests {
    let directory = TemporaryDirectory("store")

    @Test func concurrentRequestsForMissingBytesCauseExactlyOneFill() async throws {
        let store = try CacheStore.open(at: directory.path, configuration: testConfiguration())
        let range = byteRange(0, 1_000_000)
        let fillsHandedOut = Counter()
        try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<32 {
                group.addTask {
                    let claim = try store.claim(key: "seg", range: range)
                    fillsHandedOut.add(claim.fills.count)
                    for fill in claim.fills {
                        // The one owner fetches slowly, in chunks, while the others follow.
                        Task {
                            try fill.start(EntryMetadata(contentLength: 1_000_000))
                            for offset in stride(from: UInt64(0), to: 1_000_000, by: 50_000) {
                                try fill.write(originBytes(offset, 50_000))
                                try await Task.sleep(for: .milliseconds(2))
                            }
                            try fill.finish()
                        }
                    }
                    var received: [UInt8] = []
                    for try await chunk in store.reader(for: "seg").bytes(in: range) { received += chunk }
                    return received
                }
            }
            for try await received in group { #expect(received == originBytes(0, 1_000_000)) }
        }
        #expect(fillsHandedOut.value == 1)
        #expect(store.statistics.bytesFromOrigin == 1_000_000)
    }

    @Test func aFollowerReceivesBytesBeforeTheFillFinishes() async throws {
        let store = try CacheStore.open(at: directory.path, configuration: testConfiguration())
        let claim = try store.claim(key: "live", range: byteRange(0, 100_000))
        let fill = try #require(claim.fills.first)
        try fill.start(EntryMetadata(contentLength: 100_000))
        let reader = store.reader(for: "live")
        async let available = reader.waitForBytes(at: 0)
        try await store.waitForFollowers(of: "live")
        try fill.write(originBytes(0, 1000))
        #expect(try await available == 1000)
        #expect(store.followerCount(of: "live") == 0, "the write woke the follower")
        #expect(fill.position == 1000)
        try fill.write(originBytes(1000, 99_000))
        try fill.finish()
    }

    @Test func aFillFailingHalfwayKeepsItsBytesAndWakesFollowersWithTheError() async throws {
        let store = try CacheStore.open(at: directory.path, configuration: testConfiguration())
        let range = byteRange(0, 100_000)
        let fill = try #require(try store.claim(key: "k", range: range).fills.first)
        try fill.start(EntryMetadata(contentLength: 100_000))
        try fill.write(originBytes(0, 40_000))
        let follower = Task { try await store.reader(for: "k").waitForBytes(at: 60_000) }
        try await store.waitForFollowers(of: "k")
        fill.fail(CacheStoreError(.fillFailed, "origin dropped the connection"))
        let error = await #expect(throws: CacheStoreError.self) { try await follower.cancellableValue }
        #expect(error?.code == .fillFailed)
        // What was written is kept; a retry claims only the rest.
        #expect(store.cachedBytes("k", byteRange(0, 40_000)) == originBytes(0, 40_000))
        let retry = try store.claim(key: "k", range: range)
        #expect(retry.fills.map(\.range) == [byteRange(40_000, 60_000)])
    }

    @Test func anAbandonedFillReleasesItsFollowers() async throws {
        let store = try CacheStore.open(at: directory.path, configuration: testConfiguration())
        var claim: CacheStore.Claim? = try store.claim(key: "k", range: byteRange(0, 10))
        let follower = Task { try await store.reader(for: "k").waitForBytes(at: 0) }
        try await store.waitForFollowers(of: "k")
        claim = nil
        _ = claim
        await #expect(throws: CacheStoreError.fillFailed) { try await follower.cancellableValue }
    }

    @Test func bytesNeitherCachedNorInFlightAreReportedMissing() async throws {
        let store = try CacheStore.open(at: directory.path, configuration: testConfiguration())
        try store.put(key: "k", offset: 0, bytes: originBytes(0, 100), metadata: EntryMetadata(contentLength: 1000))
        let error = await #expect(throws: CacheStoreError.self) { try await store.reader(for: "k").waitForBytes(at: 500) }
        #expect(error?.code == .notCached)
        #expect(error?.missing == [byteRange(500, 500)])
    }

    @Test func theStreamingFillIsCancelledWithItsTaskAndKeepsWhatItWrote() async throws {
        let store = try CacheStore.open(at: directory.path, configuration: testConfiguration())
        // The second chunk comes only after the task is cancelled, and comes anyway (a sequence
        // that ignores cancellation): only the fill itself can refuse to store it.
        let gate = TestGate()
        let chunks = GatedChunks(first: originBytes(0, 10_000), second: originBytes(10_000, 10_000), gate: gate)
        let task = Task { try await store.fill(key: "s", offset: 0, metadata: EntryMetadata(contentLength: 1_000_000), chunks: chunks) }
        try await waitUntil("the first chunk is stored and the fill waits for the second") {
            store.cachedBytes("s", byteRange(0, 10_000)) != nil && gate.arrivals == 1
        }
        task.cancel()
        gate.open()
        await #expect(throws: CancellationError.self) { try await task.cancellableValue }
        #expect(store.reader(for: "s").file?.cachedRanges == [byteRange(0, 10_000)])
        #expect(store.cachedBytes("s", byteRange(0, 10_000)) == originBytes(0, 10_000))
        #expect(try store.claim(key: "s", range: byteRange(0, 1_000_000)).fills.map(\.range) == [byteRange(10_000, 990_000)])
    }

    @Test func aStreamingFillSkipsBytesAlreadyCached() async throws {
        let store = try CacheStore.open(at: directory.path, configuration: testConfiguration())
        try store.put(key: "m", offset: 1000, bytes: originBytes(1000, 1000), metadata: EntryMetadata(contentLength: 3000))
        let (chunks, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        continuation.yield(originBytes(0, 1500))
        continuation.yield(originBytes(1500, 1500))
        continuation.finish()
        let stored = try await store.fill(key: "m", offset: 0, metadata: EntryMetadata(contentLength: 3000), chunks: chunks)
        #expect(stored == 2000)
        #expect(store.cachedBytes("m", byteRange(0, 3000)) == originBytes(0, 3000))
    }

    @Test func aChangedValidatorReplacesTheEntryInsteadOfMixingVersions() throws {
        let store = try CacheStore.open(at: directory.path, configuration: testConfiguration())
        try store.put(key: "v", offset: 0, bytes: originBytes(0, 1000, seed: 1),
                      metadata: EntryMetadata(contentLength: 2000, entityTag: "\"one\""))
        try store.put(key: "v", offset: 1000, bytes: originBytes(1000, 1000, seed: 2),
                      metadata: EntryMetadata(contentLength: 2000, entityTag: "\"two\""))
        #expect(store.plan(key: "v", range: byteRange(0, 2000)).missing == [byteRange(0, 1000)])
        #expect(store.reader(for: "v").file?.metadata.entityTag == "\"two\"")
    }

    @Test func aForcedHashCollisionIsAMissNeverAnotherKeysBytes() throws {
        var configuration = testConfiguration()
        configuration.fileNameFunction = { _ in "ab/ab-collide.scf" }
        let store = try CacheStore.open(at: directory.path, configuration: configuration)
        try store.put(key: "first", offset: 0, bytes: originBytes(0, 100, seed: 1))
        #expect(store.plan(key: "second", range: byteRange(0, 100)).missing == [byteRange(0, 100)])
        #expect(store.cachedBytes("second", byteRange(0, 100)) == nil)
        try store.put(key: "second", offset: 0, bytes: originBytes(0, 100, seed: 2))
        #expect(store.entry(for: "first") == nil)
        #expect(store.plan(key: "first", range: byteRange(0, 100)).missing == [byteRange(0, 100)])
        #expect(store.cachedBytes("second", byteRange(0, 100)) == originBytes(0, 100, seed: 2))
    }

    @Test func planSeparatesCachedInFlightAndMissing() throws {
        let store = try CacheStore.open(at: directory.path, configuration: testConfiguration())
        try store.put(key: "p", offset: 0, bytes: originBytes(0, 100))
        let claim = try store.claim(key: "p", range: byteRange(200, 100))
        let plan = store.plan(key: "p", range: byteRange(0, 400))
        #expect(plan.pieces == [
            .init(range: byteRange(0, 100), state: .cached),
            .init(range: byteRange(100, 100), state: .missing),
            .init(range: byteRange(200, 100), state: .inFlight),
            .init(range: byteRange(300, 100), state: .missing),
        ])
        claim.fills.forEach { $0.fail(CancellationError()) }
    }
}

/// Two chunks, the second held at a gate; it ignores cancellation, as many sequences do.
struct GatedChunks: AsyncSequence, Sendable {
    let first: [UInt8]
    let second: [UInt8]
    let gate: TestGate

    struct AsyncIterator: AsyncIteratorProtocol {
        let chunks: GatedChunks
        var index = 0

        mutating func next() async -> [UInt8]? {
            defer { index += 1 }
            switch index {
            case 0: return chunks.first
            case 1:
                await chunks.gate.wait()
                return chunks.second
            default: return nil
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(chunks: self) }
}

final class Counter: Sendable {
    private let count = Mutex(0)
    func add(_ amount: Int) { count.withLock { $0 += amount } }
    var value: Int { count.withLock { $0 } }
}
