import AsyncHTTPClient
import CacheStore
import SparseFile
import Testing
import TestSupport

@Suite("Misses: one fetch, only the gaps, streamed while stored", .timeLimit(.minutes(2)))
struct MissTests {
    static let body = TestBytes(seed: 11).bytes(0, 1_000_000)
    /// The origin answers with 200 every fetch that starts past byte 0 in `originIgnoresRange`:
    /// the tail (from 900,000), the middle range (1,000-1,999), and the whole body's gap after
    /// that range (from 2,000; its gap before 1,000 starts at 0 and is no ignored Range).
    static let ignoredRangeAnswers: UInt64 = 3

    @Test("Concurrent requests for the same missing bytes make exactly one upstream fetch")
    func coalescing() async throws {
        try await ProxyHarness.run { harness in
            let gate = TestGate()
            let faults = TestOrigin.Faults(chunkSize: 100_000, pauseAfter: 100_000, gate: gate)
            harness.origin.set("/seg.ts", .init(Self.body, faults: faults))
            // The first request claims the bytes; the others arrive while its fetch is held,
            // and follow it.
            let range = [("Range", "bytes=0-999999")]
            let first = StreamingRequest(harness, "/seg.ts", headers: range)
            try await waitUntil("the first fetch is held at the gate") { gate.arrivals == 1 }
            let others = (1..<8).map { _ in StreamingRequest(harness, "/seg.ts", headers: range) }
            try await waitUntil("every request follows the fetch") { others.allSatisfy { $0.received >= 100_000 } }
            gate.open()
            for request in [first] + others {
                let body = try await request.body()
                let intact = sameBytes(body, Self.body)
                #expect(intact)
            }
            #expect(harness.origin.requests(for: "/seg.ts").count == 1)
        }
    }

    @Test("A request whose middle is cached fetches only the head and the tail")
    func onlyGaps() async throws {
        try await ProxyHarness.run { harness in
            harness.origin.set("/seg.ts", .init(Self.body))
            let middle = try await harness.get("/seg.ts", headers: [("Range", "bytes=400000-599999")])
            #expect(middle.body == Array(Self.body[400_000..<600_000]))
            harness.origin.resetLog()
            let whole = try await harness.get("/seg.ts")
            #expect(whole.status == 200)
            #expect(whole.body == Self.body)
            let ranges = Set(harness.origin.requests(for: "/seg.ts").compactMap(\.range))
            #expect(ranges == ["bytes=0-399999", "bytes=600000-999999"])
        }
    }

    @Test("An origin that answers Range with 200 is handled: skip to the offset, cache what passes")
    func originIgnoresRange() async throws {
        try await ProxyHarness.run { harness in
            let faults = TestOrigin.Faults(ignoresRange: true)
            harness.origin.set("/seg.ts", .init(Self.body, faults: faults))
            let tail = try await harness.get("/seg.ts", headers: [("Range", "bytes=900000-")])
            #expect(tail.status == 206)
            #expect(tail.body == Array(Self.body[900_000...]))
            let middle = try await harness.get("/seg.ts", headers: [("Range", "bytes=1000-1999")])
            #expect(middle.status == 206)
            #expect(middle.body == Array(Self.body[1000..<2000]))
            let whole = try await harness.get("/seg.ts")
            #expect(whole.body == Self.body)
            #expect(harness.proxy.status?.traffic.originsIgnoringRange == Self.ignoredRangeAnswers, "\(harness.origin.requests(for: "/seg.ts").map(\.range))")
        }
    }

    @Test("A chunked origin body of unknown length is streamed and cached")
    func chunkedUnknownLength() async throws {
        try await ProxyHarness.run { harness in
            let faults = TestOrigin.Faults(ignoresRange: true, chunked: true)
            harness.origin.set("/live.ts", .init(Self.body, faults: faults))
            let first = try await harness.get("/live.ts")
            #expect(first.status == 200)
            #expect(first.body == Self.body)
            harness.origin.resetLog()
            let ranged = try await harness.get("/live.ts", headers: [("Range", "bytes=-10")])
            #expect(ranged.status == 206)
            #expect(ranged.body == Array(Self.body.suffix(10)))
            #expect(harness.origin.requests.isEmpty, "the length was learned when the body ended")
        }
    }

    @Test("The first bytes of a slow miss reach the client before the origin has finished")
    func streamsWhileDownloading() async throws {
        try await ProxyHarness.run { harness in
            let faults = TestOrigin.Faults(chunkDelay: .milliseconds(100), chunkSize: 50_000)
            harness.origin.set("/slow.ts", .init(Self.body, faults: faults))
            let clock = ContinuousClock()
            let start = clock.now
            var request = HTTPClientRequest(url: harness.proxyURL("/slow.ts"))
            request.headers.add(name: "Range", value: "bytes=0-499999")
            let response = try await harness.client.execute(request, timeout: .seconds(30))
            var iterator = response.body.makeAsyncIterator()
            _ = try await iterator.next()
            let firstByte = clock.now - start
            var received = 0
            while let chunk = try await iterator.next() { received += chunk.readableBytes }
            let total = clock.now - start
            #expect(received > 0)
            #expect(total > .milliseconds(800), "ten chunks 100 ms apart")
            #expect(total - firstByte > .milliseconds(600), "the first bytes came long before the last")
        }
    }

    @Test("Bytes fetched for one client are stored for the next, with the origin's validators")
    func storesWithValidators() async throws {
        try await ProxyHarness.run { harness in
            harness.origin.set("/seg.ts", .init(Self.body, contentType: "video/mp2t", entityTag: "\"abc\""))
            _ = try await harness.get("/seg.ts")
            let key = harness.store.key(for: harness.origin.url("/seg.ts"))
            let file = try #require(harness.store.reader(for: key).file)
            #expect(file.isComplete)
            #expect(file.metadata.entityTag == "\"abc\"")
            #expect(file.metadata.contentType == "video/mp2t")
        }
    }

    @Test("A store without room streams the rest from the origin: a full cache never breaks a response")
    func storeFullPassesThrough() async throws {
        let big = TestBytes(seed: 13).bytes(0, 3_000_000)
        try await ProxyHarness.run(storeSize: 1 << 20) { harness in
            harness.origin.set("/big.ts", .init(big))
            for _ in 0..<2 {
                let response = try await harness.get("/big.ts")
                #expect(response.status == 200)
                #expect(response.body == big)
                let ranged = try await harness.get("/big.ts", headers: [("Range", "bytes=2000000-")])
                #expect(ranged.body == Array(big[2_000_000...]))
            }
            #expect(harness.store.totalBytes <= 1 << 20)
            #expect(harness.proxy.status?.traffic.brokenResponses == 0)
        }
    }

    @Test("The warning for a cache without room names the size limit when the disk has room")
    func storeFullWarningNamesTheLimit() async throws {
        let log = CapturedLog()
        let big = TestBytes(seed: 14).bytes(0, 3_000_000)
        try await ProxyHarness.run(storeSize: 1 << 20, logger: log.logger(level: .warning)) { harness in
            harness.origin.set("/big.ts", .init(big))
            let response = try await harness.get("/big.ts")
            #expect(sameBytes(response.body, big))
        }
        let warnings = log.all.filter { $0.level == .warning && $0.message.hasPrefix("the cache has no room") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.message.contains("size limit") == true && warnings.first?.message.contains("disk") == false,
                "\(warnings.map(\.message))")
        #expect(warnings.first?.metadata["maximumSize"] == "\(1 << 20)")
    }
}
