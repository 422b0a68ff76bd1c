import CacheProxy
import CacheStore
import SparseFile
import Testing
import TestSupport

/// What happens to a fetch when the client that started it goes away (it goes on when at most
/// `orphanFetchLimit` bytes are left), and to the clients that were following it. The tests
/// set the limit to 1 MiB, so that the resources on both sides of it stay small.
@Suite("A client that goes away", .timeLimit(.minutes(2)))
struct OrphanFetchTests {
    static let limit: UInt64 = 1 << 20
    /// Once the first 200,000 bytes are in, less than the limit is left…
    static let small = TestBytes(seed: 51).bytes(0, 1_000_000)
    /// …and here more.
    static let large = TestBytes(seed: 52).bytes(0, 3_000_000)
    static let heldAt = 200_000

    static func run(_ body: (ProxyHarness) async throws -> Void) async throws {
        try await ProxyHarness.run(configure: { $0.orphanFetchLimit = limit }, body)
    }

    @Test("The limit is 8 MiB unless configured")
    func defaultLimit() {
        #expect(CacheProxyConfiguration().orphanFetchLimit == 8 << 20)
    }

    /// The origin sends `heldAt` bytes of each response, then waits for the gate.
    private func publish(_ harness: ProxyHarness, _ body: [UInt8], gate: TestGate) {
        let faults = TestOrigin.Faults(chunkDelay: .milliseconds(10), chunkSize: 32 * 1024, pauseAfter: Self.heldAt, gate: gate)
        harness.origin.set("/v.ts", .init(body, faults: faults))
    }

    /// Starts a GET on a raw connection and returns it once its fetch is held at the gate and
    /// the client has read every byte before it: the proxy then has nothing to write to the
    /// client, and learns that it left only when the gate opens.
    private func startFetch(_ harness: ProxyHarness, gate: TestGate) async throws -> RawConnection {
        let connection = try RawConnection(port: harness.port)
        connection.send("GET /proxy?url=\(percentEncoded(harness.origin.url("/v.ts"))) HTTP/1.1\r\nHost: \(harness.host)\r\n\r\n")
        try await waitUntil("the origin holds the body at the gate") { gate.arrivals == 1 }
        let received = await connection.readHead(andBody: Self.heldAt, timeout: .seconds(20))
        try #require(received, "the client received the bytes before the gate")
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

    @Test("A fetch whose client left stops when more than the limit is left")
    func stopsWhenMuchIsLeft() async throws {
        try await Self.run { harness in
            let gate = TestGate()
            publish(harness, Self.large, gate: gate)
            do { _ = try await startFetch(harness, gate: gate) }  // the client hangs up here
            gate.open()
            try await waitUntil("the origin's response ended") { !harness.origin.outcomes(for: "/v.ts").isEmpty }
            #expect(harness.origin.outcomes(for: "/v.ts") == [.abandoned], "the proxy hung up on the origin")
            try await fetchesEnded(harness, length: Self.large.count)
            let cached = cachedLength(harness)
            #expect(cached >= UInt64(Self.heldAt) && cached < UInt64(Self.large.count) - Self.limit, "\(cached) bytes kept")
            #expect(harness.origin.requests(for: "/v.ts").count == 1)
        }
    }

    @Test("A fetch whose client left is finished when at most the limit is left")
    func finishesWhenLittleIsLeft() async throws {
        try await Self.run { harness in
            let gate = TestGate()
            publish(harness, Self.small, gate: gate)
            do { _ = try await startFetch(harness, gate: gate) }
            gate.open()
            try await waitUntil("the origin's response ended") { !harness.origin.outcomes(for: "/v.ts").isEmpty }
            try await waitUntil("the origin's response ended") { !harness.origin.outcomes(for: "/v.ts").isEmpty }
            #expect(harness.origin.outcomes(for: "/v.ts") == [.complete])
            try await fetchesEnded(harness, length: Self.small.count)
            #expect(cachedLength(harness) == UInt64(Self.small.count))
            #expect(harness.origin.requests(for: "/v.ts").count == 1)
            let again = try await harness.get("/v.ts")
            let intact = sameBytes(again.body, Self.small)
            #expect(intact)
            #expect(harness.origin.requests(for: "/v.ts").count == 1, "served from the cache")
        }
    }

    @Test("A fetch another client follows goes on for it when its own client leaves: one origin request")
    func followedFetchGoesOn() async throws {
        try await Self.run { harness in
            let gate = TestGate()
            publish(harness, Self.large, gate: gate)
            // The first client hangs up once its fetch is held, with more than the limit left.
            do { _ = try await startFetch(harness, gate: gate) }
            let follower = StreamingRequest(harness, "/v.ts")
            try await waitUntil("the follower has the bytes fetched so far") { follower.received >= Self.heldAt }
            #expect(harness.origin.requests(for: "/v.ts").count == 1, "the follower follows, it does not fetch")
            gate.open()
            let body = try await follower.body()
            let intact = sameBytes(body, Self.large)
            #expect(intact, "the follower got all \(Self.large.count) bytes (\(body.count))")
            #expect(harness.origin.requests(for: "/v.ts").count == 1, "the followed fetch was not cut and fetched again")
            try await waitUntil("the origin's response ended") { !harness.origin.outcomes(for: "/v.ts").isEmpty }
            #expect(harness.origin.outcomes(for: "/v.ts") == [.complete])
        }
    }

    @Test("A follower of a fetch that failed fetches the bytes itself")
    func followerOfAFailedLeader() async throws {
        try await Self.run { harness in
            let gate = TestGate()
            let body = TestBytes(seed: 53).bytes(0, 600_000)
            // Each response stops at 200,000 bytes until the gate opens, and drops at 400,000.
            let faults = TestOrigin.Faults(dropAfter: 400_000, chunkSize: 50_000, pauseAfter: 200_000, gate: gate)
            harness.origin.set("/v.ts", .init(body, faults: faults))
            let leader = StreamingRequest(harness, "/v.ts")
            try await waitUntil("the leader's fetch is held at the gate") { gate.arrivals == 1 }
            let follower = StreamingRequest(harness, "/v.ts")
            try await waitUntil("the follower has the bytes fetched so far") { follower.received >= 200_000 }
            gate.open()
            // The leader's own response breaks where its fetch failed, unless it was still behind
            // and followed the follower's fetch from there: never a wrong byte either way.
            if let led = try? await leader.body() {
                #expect(sameBytes(led, body), "the leader's body (\(led.count) bytes)")
            }
            let followed = try await follower.body()
            let intact = sameBytes(followed, body)
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
