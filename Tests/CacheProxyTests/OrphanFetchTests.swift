import CacheStore
import SparseFile
import Testing
import TestSupport

/// What happens to a fetch when the client that started it goes away (default limit: a fetch
/// goes on when at most 8 MiB are left), and to the clients that were following it.
@Suite("A client that goes away", .timeLimit(.minutes(2)))
struct OrphanFetchTests {
    /// 4 MB: once the first megabyte is in, less than 8 MiB are left.
    static let small = TestBytes(seed: 51).bytes(0, 4_000_000)
    /// 12 MB: after the first megabyte, more than 8 MiB are left.
    static let large = TestBytes(seed: 52).bytes(0, 12_000_000)
    static let heldAt = 1_000_000

    /// The origin sends `heldAt` bytes of each response, then waits for the gate.
    private func publish(_ harness: ProxyHarness, _ body: [UInt8], gate: Gate) {
        let faults = TestOrigin.Faults(chunkDelay: .milliseconds(10), chunkSize: 64 * 1024, pauseAfter: Self.heldAt, gate: gate)
        harness.origin.set("/v.ts", .init(body, faults: faults))
    }

    /// Starts a GET on a raw connection and returns it once its fetch is held at the gate.
    private func startFetch(_ harness: ProxyHarness, gate: Gate) async throws -> RawConnection {
        let connection = try RawConnection(port: harness.port)
        connection.send("GET /proxy?url=\(percentEncoded(harness.origin.url("/v.ts"))) HTTP/1.1\r\nHost: x\r\n\r\n")
        try await waitUntil("the origin holds the body at the gate") { gate.arrivals == 1 }
        return connection
    }

    private func fetchesEnded(_ harness: ProxyHarness, length: Int) async throws {
        let key = harness.store.key(for: harness.origin.url("/v.ts"))
        let whole = try #require(ByteRange(offset: 0, length: UInt64(length)))
        try await waitUntil("no fetch of the resource is in flight") {
            !harness.store.plan(key: key, range: whole).pieces.contains { $0.state == .inFlight }
        }
    }

    private func cachedLength(_ harness: ProxyHarness) -> UInt64 {
        harness.store.reader(for: harness.store.key(for: harness.origin.url("/v.ts"))).file?.cachedLength(from: 0) ?? 0
    }

    @Test("A fetch whose client left stops when more than 8 MiB are left")
    func stopsWhenMuchIsLeft() async throws {
        try await ProxyHarness.run { harness in
            let gate = Gate()
            publish(harness, Self.large, gate: gate)
            do { _ = try await startFetch(harness, gate: gate) }  // the client hangs up here
            gate.open()
            try await waitUntil("the origin's response ended") { !harness.origin.outcomes(for: "/v.ts").isEmpty }
            #expect(harness.origin.outcomes(for: "/v.ts") == [.abandoned], "the proxy hung up on the origin")
            try await fetchesEnded(harness, length: Self.large.count)
            let cached = cachedLength(harness)
            #expect(cached >= UInt64(Self.heldAt) && cached < UInt64(Self.large.count - (8 << 20)), "\(cached) bytes kept")
            #expect(harness.origin.requests(for: "/v.ts").count == 1)
        }
    }

    @Test("A fetch whose client left is finished when at most 8 MiB are left")
    func finishesWhenLittleIsLeft() async throws {
        try await ProxyHarness.run { harness in
            let gate = Gate()
            publish(harness, Self.small, gate: gate)
            do { _ = try await startFetch(harness, gate: gate) }
            gate.open()
            try await waitUntil("the origin's response ended") { !harness.origin.outcomes(for: "/v.ts").isEmpty }
            #expect(harness.origin.outcomes(for: "/v.ts") == [.complete])
            try await fetchesEnded(harness, length: Self.small.count)
            #expect(cachedLength(harness) == UInt64(Self.small.count))
            #expect(harness.origin.requests(for: "/v.ts").count == 1)
            let again = try await harness.get("/v.ts")
            let intact = again.body.elementsEqual(Self.small)
            #expect(intact)
            #expect(harness.origin.requests(for: "/v.ts").count == 1, "served from the cache")
        }
    }

    @Test("A follower of a fetch stopped because its client left takes over and fetches only the rest")
    func followerTakesOver() async throws {
        try await ProxyHarness.run { harness in
            let gate = Gate()
            publish(harness, Self.large, gate: gate)
            // The first client hangs up once its fetch is held, with more than 8 MiB left.
            do { _ = try await startFetch(harness, gate: gate) }
            let follower = StreamingRequest(harness, "/v.ts")
            try await waitUntil("the follower has the bytes fetched so far") { follower.received >= Self.heldAt }
            #expect(harness.origin.requests(for: "/v.ts").count == 1, "the follower follows, it does not fetch")
            gate.open()
            let body = try await follower.body()
            let intact = body.elementsEqual(Self.large)
            #expect(intact, "the follower got all \(Self.large.count) bytes (\(body.count))")
            let requests = harness.origin.requests(for: "/v.ts")
            #expect(requests.count == 2)
            #expect(harness.origin.outcomes(for: "/v.ts").first == .abandoned)
            let resumedAt = requests.last.flatMap { DownloadTests.range(of: $0, length: Self.large.count).offset } ?? 0
            #expect(resumedAt >= UInt64(Self.heldAt), "the follower asked only for the rest, from \(resumedAt)")
        }
    }

    @Test("A follower of a fetch that failed fetches the bytes itself")
    func followerOfAFailedLeader() async throws {
        try await ProxyHarness.run { harness in
            let gate = Gate()
            let body = TestBytes(seed: 53).bytes(0, 600_000)
            // Each response stops at 200,000 bytes until the gate opens, and drops at 400,000.
            let faults = TestOrigin.Faults(dropAfter: 400_000, chunkSize: 50_000, pauseAfter: 200_000, gate: gate)
            harness.origin.set("/v.ts", .init(body, faults: faults))
            let leader = StreamingRequest(harness, "/v.ts")
            try await waitUntil("the leader's fetch is held at the gate") { gate.arrivals == 1 }
            let follower = StreamingRequest(harness, "/v.ts")
            try await waitUntil("the follower has the bytes fetched so far") { follower.received >= 200_000 }
            gate.open()
            await #expect(throws: (any Error).self, "the leader's response is broken") { _ = try await leader.body() }
            let followed = try await follower.body()
            let intact = followed.elementsEqual(body)
            #expect(intact, "the follower got the origin's bytes (\(followed.count))")
            // The follower asked only for what the failed fetch had not stored (the origin's drop
            // after 400,000 bytes loses what its socket still held).
            let requests = harness.origin.requests(for: "/v.ts")
            #expect(requests.map(\.range).first == "bytes=0-")
            let resumed = try #require(requests.dropFirst().first.map { DownloadTests.range(of: $0, length: body.count) })
            #expect(requests.count == 2 && resumed.offset >= 200_000 && resumed.offset <= 400_000 && resumed.end == 600_000,
                    "\(requests)")
            #expect(harness.origin.outcomes(for: "/v.ts") == [.dropped, .complete])
        }
    }
}
