import Foundation
import Synchronization
import Testing
import TestSupport
@testable import CacheStore
import SparseFile

/// The store's lock is never held across disk I/O: a disk that hangs on one entry's file may
/// delay requests for that file, never a hit on another one. Each test stops a system call with
/// `CallBlocker` and serves hits on another thread; a hit that does not return within seconds
/// fails the test (instead of hanging it), and the stopped call is then let go.
@Suite("No disk I/O under the store's lock")
struct LockDisciplineTests {
    let directory = TemporaryDirectory("store-lock")

    func configuration(_ blocker: CallBlocker, durability: Durability = .ordered) -> CacheStoreConfiguration {
        var configuration = testConfiguration()
        configuration.fileOptions = SparseFileOptions(SparseFileOptions(durability: durability), systemCalls: blocker.calls)
        return configuration
    }

    /// Runs `body` on a new thread; true when it returned within `seconds`.
    func finishes(within seconds: Int = 10, _ body: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            body()
            done.signal()
        }
        return done.wait(timeout: .now() + .seconds(seconds)) == .success
    }

    /// Everything a cache hit on `key` does, plus a miss on a third key; returns whether the
    /// bytes read were right.
    static func hit(_ store: CacheStore, _ key: String, other: String) -> Bool {
        store.recordHit(key: key)
        let range = byteRange(0, 100_000)
        guard store.plan(key: key, range: range).isFullyCached,
              (try? store.claim(key: key, range: range).fills.isEmpty) == true,
              store.cachedBytes(key, range) == originBytes(0, 100_000),
              store.entries.contains(where: { $0.key == key }), store.statistics.hits > 0 else { return false }
        return (try? store.put(key: other, offset: 0, bytes: originBytes(0, 1000))) != nil
    }

    @Test(.timeLimit(.minutes(1)))
    func aSyncThatHangsWhileOneEntryIsCreatedDelaysNoHitOnAnother() throws {
        let blocker = CallBlocker()
        let store = try CacheStore.open(at: directory.path, configuration: configuration(blocker))
        try store.put(key: "hot", offset: 0, bytes: originBytes(0, 100_000))
        blocker.arm(.fdatasync)
        let created = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? store.put(key: "cold", offset: 0, bytes: originBytes(0, 50_000))
            created.signal()
        }
        #expect(blocker.waitUntilStopped(), "creating the entry never synced")
        let served = Mutex(false)
        let hitsReturned = finishes { served.withLock { $0 = Self.hit(store, "hot", other: "third") } }
        blocker.release()
        created.wait()
        #expect(hitsReturned, "a hit on another entry waited for the sync")
        #expect(served.withLock { $0 })
        #expect(store.cachedBytes("cold", byteRange(0, 50_000)) == originBytes(0, 50_000))
    }

    @Test(.timeLimit(.minutes(1)))
    func anOpenThatHangsDelaysOnlyRequestsForThatFileAndIsDoneOnce() throws {
        do {
            let store = try CacheStore.open(at: directory.path, configuration: testConfiguration())
            for key in ["hot", "cold"] { try store.put(key: key, offset: 0, bytes: originBytes(0, 100_000)) }
            try store.close()
        }
        let blocker = CallBlocker()
        let store = try CacheStore.open(at: directory.path, configuration: configuration(blocker, durability: .none))
        let coldFile = try #require(store.entry(for: "cold")?.fileName)
        _ = store.reader(for: "hot").file
        blocker.arm(.open(pathContaining: coldFile))
        let opened = Mutex<[SparseFile]>([])
        let bothOpened = DispatchSemaphore(value: 0)
        for _ in 0..<2 {
            Thread.detachNewThread {
                if let file = store.reader(for: "cold").file { opened.withLock { $0.append(file) } }
                bothOpened.signal()
            }
        }
        #expect(blocker.waitUntilStopped(), "the file was never opened")
        let served = Mutex(false)
        let hitsReturned = finishes { served.withLock { $0 = Self.hit(store, "hot", other: "third") } }
        blocker.release()
        bothOpened.wait()
        bothOpened.wait()
        #expect(hitsReturned, "a hit on another entry waited for the open")
        #expect(served.withLock { $0 })
        let files = opened.withLock { $0 }
        #expect(files.count == 2)
        #expect(files.first === files.last, "the second request waited for the first open instead of opening again")
        #expect(store.cachedBytes("cold", byteRange(0, 100_000)) == originBytes(0, 100_000))
    }

    @Test(.timeLimit(.minutes(1)))
    func aCancellationWhileTheWaiterOpensTheFileIsNotLost() async throws {
        let blocker = CallBlocker()
        let store = try CacheStore.open(at: directory.path, configuration: configuration(blocker, durability: .none))
        try store.put(key: "k", offset: 0, bytes: originBytes(0, 1000), metadata: EntryMetadata(contentLength: 10_000))
        let fill = try #require(try store.claim(key: "k", range: byteRange(1000, 9000)).fills.first)
        // The store lets go of the file, so that the waiter below has to open it again.
        store.state.withLock { state in
            state.files.forget("k")
            _ = state.files.takeReleased()
        }
        blocker.arm(.open(pathContaining: try #require(store.entry(for: "k")?.fileName)))
        let waiter = Task { try await store.reader(for: "k").waitForBytes(at: 5000) }
        #expect(blocker.waitUntilStopped(), "the waiter never opened the file")
        waiter.cancel()
        blocker.release()
        let outcome = await withTaskGroup(of: String?.self) { group in
            group.addTask {
                do {
                    _ = try await waiter.value
                    return "bytes"
                } catch is CancellationError {
                    return "cancelled"
                } catch {
                    return "\(error)"
                }
            }
            group.addTask {
                // Only if the waiter hangs: end the fill it would wait for, so the test ends.
                try? await Task.sleep(for: .seconds(10))
                fill.fail(CacheStoreError(.fillFailed, "the waiter hung"))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        #expect(outcome == "cancelled")
        fill.fail(CancellationError())
    }
}
