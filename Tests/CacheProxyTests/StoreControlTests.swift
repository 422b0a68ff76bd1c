import CacheProxy
import CacheStore
import Foundation
import Testing
import TestSupport

/// The store managed while the proxy serves from it: the CLI's writing commands hand their work
/// to the running proxy (a store has one writer), through control routes that follow the
/// control-route rules, and `CacheProxy` offers the same in Swift.
@Suite("Managing the store while the proxy runs", .timeLimit(.minutes(3)))
struct StoreControlTests {
    /// What the `sparsecache` process did.
    struct Run: Sendable {
        var status: Int32
        var output: String
        var error: String
    }

    /// Runs the real binary on a thread of its own, so the proxy in this process keeps serving.
    static func sparsecache(_ arguments: [String]) async throws -> Run {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                do {
                    let result = try CommandLineTool.run(arguments)
                    continuation.resume(returning: Run(status: result.status, output: result.outputText, error: result.standardError))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// Caches `/a.ts`, `/b.ts` and `/c.ts` (100,000 bytes each) through the proxy, `a` first.
    static func cacheThree(_ harness: ProxyHarness) async throws {
        for (index, name) in ["a", "b", "c"].enumerated() {
            harness.origin.set("/\(name).ts", .init(TestBytes(seed: UInt64(40 + index)).bytes(0, 100_000)))
            #expect(try await harness.get("/\(name).ts").status == 200)
        }
        // A client can have every byte before its fill has ended, and eviction skips an entry
        // being filled: on a loaded machine `evict` then found one entry fewer.
        try await waitUntil("the three fills have ended") {
            guard let status = harness.proxy.status else { return false }
            return status.segment.active == 0 && status.express.active == 0
        }
    }

    static func keys(_ store: CacheStore) -> Set<String> {
        Set(store.entries.map { URL(string: $0.key)?.path ?? $0.key })
    }

    @Test("pin, evict, unpin, rm and clear beside a running proxy go through it, and its store shows them")
    func commandsGoThroughTheProxy() async throws {
        let directory = TemporaryDirectory("store-control")
        try await ProxyHarness.run(directory: directory) { harness in
            try await Self.cacheThree(harness)
            let a = harness.origin.url("/a.ts")
            let dir = ["--cache-dir", directory.path]

            let pin = try await Self.sparsecache(["pin"] + dir + [a])
            #expect(pin.status == 0 && pin.output.isEmpty, "\(pin.error)")
            #expect(harness.store.entry(for: harness.store.key(for: a))?.pinned == true)

            // Down to 0: the pinned entry stays, so evict says so and exits 1, as it does on a free store.
            let evict = try await Self.sparsecache(["evict"] + dir + ["--to", "0"])
            #expect(evict.output.hasPrefix("evicted 2 entries, freed "), "\(evict.output) \(evict.error)")
            #expect(evict.status == 1 && evict.error.contains("pinned"), "\(evict.error)")
            #expect(Self.keys(harness.store) == ["/a.ts"])

            let unpin = try await Self.sparsecache(["unpin"] + dir + [a])
            #expect(unpin.status == 0, "\(unpin.error)")
            #expect(harness.store.entry(for: harness.store.key(for: a))?.pinned == false)

            let remove = try await Self.sparsecache(["rm"] + dir + [a])
            #expect(remove.status == 0 && remove.output.isEmpty, "\(remove.error)")
            #expect(harness.store.entries.isEmpty)

            let missing = try await Self.sparsecache(["rm"] + dir + [a])
            #expect(missing.status == 1)
            #expect(missing.error == "sparsecache: \(directory.path): no entry for key \(harness.store.key(for: a))\n")
            #expect(try await Self.sparsecache(["pin"] + dir + [a]).error == missing.error)

            try await Self.cacheThree(harness)
            let diskBytes = harness.store.totalBytes
            let clear = try await Self.sparsecache(["clear"] + dir)
            // The bytes freed, as clear prints them here (the last blocks' commits may still add a page).
            #expect(clear.status == 0 && (UInt64(clear.output.dropLast()) ?? 0) >= diskBytes, "\(clear.output) \(clear.error)")
            #expect(harness.store.entries.isEmpty)
        }
    }

    @Test("The commands print and exit alike with the store free and with a proxy holding it")
    func sameOutputAsWithoutAProxy() async throws {
        /// pin, evict --to 0 (the pinned entry stays: exit 1), unpin, clear, rm of what is gone (exit 1).
        func commands(_ directory: String, _ url: String) async throws -> [Run] {
            let dir = ["--cache-dir", directory]
            return [
                try await Self.sparsecache(["pin"] + dir + [url]), try await Self.sparsecache(["evict"] + dir + ["--to", "0"]),
                try await Self.sparsecache(["unpin"] + dir + [url]), try await Self.sparsecache(["clear"] + dir),
                try await Self.sparsecache(["rm"] + dir + [url]),
            ]
        }
        // A proxy caches the entry and stops; then the commands open the store themselves.
        let free = TemporaryDirectory("store-free")
        let origin = try await TestOrigin.start()
        let url = origin.url("/a.ts")
        try await ProxyHarness.run(origin: origin, directory: free) { harness in
            harness.origin.set("/a.ts", .init(TestBytes(seed: 40).bytes(0, 100_000)))
            let status = try await harness.get("/a.ts").status
            #expect(status == 200)
        }
        let closed = try CacheStore.open(at: free.path, readOnly: true)
        let freeBytes = closed.totalBytes
        try closed.close()
        let local = try await commands(free.path, url)

        let held = TemporaryDirectory("store-held")
        try await ProxyHarness.run(directory: held) { harness in
            harness.origin.set("/a.ts", .init(TestBytes(seed: 40).bytes(0, 100_000)))
            #expect(try await harness.get("/a.ts").status == 200)
            let heldBytes = harness.store.totalBytes
            let handed = try await commands(held.path, harness.origin.url("/a.ts"))
            #expect(handed.map(\.status) == local.map(\.status), "\(local.map(\.error)) \(handed.map(\.error))")
            #expect(handed.map(\.status) == [0, 1, 0, 0, 1])
            #expect(local[3].output == "\(freeBytes)\n" && (UInt64(handed[3].output.dropLast()) ?? 0) >= heldBytes, "clear prints the bytes freed")
            for index in [0, 1, 2, 4] {
                #expect(handed[index].output == local[index].output, "\(handed[index].error)")
            }
            #expect(handed[1].output.hasPrefix("evicted 0 entries, freed 0 bytes"))
            // The messages name the directory and key given, which differ between the two runs.
            #expect(handed.map { $0.error.isEmpty } == local.map { $0.error.isEmpty })
        }
    }

    @Test("With a control token, the store routes refuse a request without it, and the CLI passes --control-token")
    func controlTokenIsRequired() async throws {
        let directory = TemporaryDirectory("store-token")
        try await ProxyHarness.run(configure: { $0.security.controlToken = "s3cret-token" }, directory: directory) { harness in
            try await Self.cacheThree(harness)
            let client = SessionClient(harness: harness)
            let a = harness.origin.url("/a.ts")
            let refused = [
                try await client.send(.POST, "/entries/pin", body: #"{"url": "\#(a)"}"#).status,
                try await client.send(.POST, "/entries/unpin", body: #"{"url": "\#(a)"}"#).status,
                try await client.send(.POST, "/evict", body: #"{"to": 0}"#).status,
                try await client.send(.DELETE, "/entries?url=" + percentEncoded(a)).status,
                try await client.send(.DELETE, "/entries").status,
            ]
            #expect(refused == [401, 401, 401, 401, 401])
            #expect(harness.store.entries.count == 3 && harness.store.entries.allSatisfy { !$0.pinned })

            let dir = ["--cache-dir", directory.path]
            let without = try await Self.sparsecache(["rm"] + dir + [a])
            #expect(without.status == 1 && without.error.contains("--control-token"), "\(without.error)")
            #expect(harness.store.entries.count == 3)
            let with = try await Self.sparsecache(["rm"] + dir + [a, "--control-token", "s3cret-token"])
            #expect(with.status == 0, "\(with.error)")
            #expect(Self.keys(harness.store) == ["/b.ts", "/c.ts"])
        }
    }

    @Test("A pinned entry survives an eviction while the proxy serves, and is still served from the cache")
    func pinnedEntrySurvivesEviction() async throws {
        try await ProxyHarness.run { harness in
            try await Self.cacheThree(harness)
            let client = SessionClient(harness: harness)
            let a = harness.origin.url("/a.ts")
            let pinned = try await client.send(.POST, "/entries/pin", body: #"{"url": "\#(a)"}"#)
            #expect(pinned.status == 200)
            #expect(SessionClient.object(pinned.body)?["pinned"] as? Bool == true)

            let evicted = try await client.send(.POST, "/evict", body: #"{"to": 0}"#)
            #expect(evicted.status == 200)
            let removal = try #require(SessionClient.object(evicted.body))
            #expect(removal["removed"] as? Int == 2)
            #expect(removal["pinnedEntries"] as? Int == 1)
            #expect(removal["totalBytes"] as? Int == Int(harness.store.totalBytes))
            #expect(Self.keys(harness.store) == ["/a.ts"])

            let served = try await harness.get("/a.ts")
            #expect(served.status == 200 && served.body == TestBytes(seed: 40).bytes(0, 100_000))
            #expect(harness.origin.requests(for: "/a.ts").count == 1, "the pinned entry was served from the cache")
        }
    }

    @Test("GET and DELETE /entries?url= read and remove one entry; DELETE /entries clears, but never with a query")
    func entryRoutes() async throws {
        try await ProxyHarness.run { harness in
            try await Self.cacheThree(harness)
            let client = SessionClient(harness: harness)
            let a = percentEncoded(harness.origin.url("/a.ts"))
            let one = try await client.send(.GET, "/entries?url=" + a)
            #expect(one.status == 200 && SessionClient.object(one.body)?["cachedBytes"] as? Int == 100_000)
            #expect(try await client.send(.DELETE, "/entries?url=").status == 400, "an empty url never clears")
            #expect(try await client.send(.DELETE, "/entries?limit=5").status == 400)
            #expect(harness.store.entries.count == 3)

            let removed = try await client.send(.DELETE, "/entries?url=" + a)
            #expect(removed.status == 200 && SessionClient.object(removed.body)?["removed"] as? Int == 1)
            #expect(try await client.send(.DELETE, "/entries?url=" + a).status == 404)
            #expect(try await client.send(.POST, "/entries/pin", body: #"{"url": "http://nowhere.example/x"}"#).status == 404)

            let cleared = try await client.send(.DELETE, "/entries")
            #expect(cleared.status == 200 && SessionClient.object(cleared.body)?["removed"] as? Int == 2)
            #expect(harness.store.entries.isEmpty)
            #expect(try await client.send(.GET, "/evict").status == 405)
            #expect(try await client.send(.GET, "/entries/pin").status == 405)
        }
    }

    @Test("From Swift: pin, unpin, removeEntry, evict and clear")
    func swiftAPI() async throws {
        try await ProxyHarness.run { harness in
            try await Self.cacheThree(harness)
            let (a, b) = (harness.origin.url("/a.ts"), harness.origin.url("/b.ts"))
            #expect(try harness.proxy.pin(a).pinned)
            #expect(try harness.proxy.evict(toSize: 0).removed == 2)
            #expect(try harness.proxy.unpin(a).pinned == false)
            #expect(try harness.proxy.removeEntry(a).removed == 1)
            #expect(throws: CacheStoreError(.noEntry, "")) { try harness.proxy.removeEntry(b) }
            try await Self.cacheThree(harness)
            let cleared = try harness.proxy.clear()
            #expect(cleared.removed == 3 && cleared.totalBytes == 0)
        }
    }
}
